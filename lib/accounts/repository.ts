import { Prisma, db, type Tx } from '../db';
import { insertAll, type RowWrite } from '../sql';
import type { CustomerRow } from '../customers/repository';
import { afterCursor, newestFirst, type Cursor } from '../http/pagination';

export interface InternalAccountRow {
  id: string;
  platformId: string;
  customerId: string | null;
  type: string;
  status: string;
  currency: string;
  privateEnabled: boolean | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Rows of several tables (accounts, their ledger buckets, ...) in one statement. */
export async function insertWrites(writes: RowWrite[], tx: Tx = db()): Promise<void> {
  if (writes.length) await tx.$executeRaw(insertAll(writes));
}

export function findById(platformId: string, id: string, tx: Tx = db()): Promise<InternalAccountRow | null> {
  return tx.internalAccount.findFirst({ where: { platformId, id } });
}

export function byIds(ids: string[], tx: Tx = db()): Promise<InternalAccountRow[]> {
  return tx.internalAccount.findMany({ where: { id: { in: ids } } });
}

export function platformAccounts(platformId: string, tx: Tx = db()): Promise<InternalAccountRow[]> {
  return tx.internalAccount.findMany({ where: { platformId, customerId: null }, orderBy: { createdAt: 'asc' } });
}

export function forCustomer(platformId: string, customerId: string, tx: Tx = db()): Promise<InternalAccountRow[]> {
  return tx.internalAccount.findMany({ where: { platformId, customerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export interface InternalAccountFilter {
  owner: 'customers' | 'platform';
  customerId?: string;
  currency?: string;
  type?: string;
}

function where(platformId: string, f: InternalAccountFilter) {
  return {
    platformId,
    customerId: f.owner === 'platform' ? null : f.customerId ? f.customerId : { not: null },
    ...(f.currency ? { currency: f.currency } : {}),
    ...(f.type ? { type: f.type } : {}),
  };
}

export async function list(platformId: string, f: InternalAccountFilter, limit: number, cursor?: Cursor) {
  const base = where(platformId, f);
  const [rows, total] = await Promise.all([
    db().internalAccount.findMany({ where: { AND: [base, afterCursor(cursor)] }, orderBy: newestFirst, take: limit + 1 }),
    db().internalAccount.count({ where: base }),
  ]);
  return { rows, total };
}

export async function touch(ids: string[], at: Date, tx: Tx): Promise<void> {
  await tx.internalAccount.updateMany({ where: { id: { in: ids } }, data: { updatedAt: at } });
}

export async function setStatus(platformId: string, id: string, from: string[], to: string, at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.internalAccount.updateMany({ where: { platformId, id, status: { in: from } }, data: { status: to, updatedAt: at } });
  return n.count === 1;
}

export async function setPrivacy(id: string, privateEnabled: boolean, at: Date, tx: Tx): Promise<void> {
  await tx.internalAccount.update({ where: { id }, data: { privateEnabled, updatedAt: at } });
}

/** Internal accounts with their three bucket balances, in one statement. */
export async function withBalances(ids: string[], tx: Tx = db()) {
  if (!ids.length) return [];
  const rows = await tx.$queryRaw<(InternalAccountRow & { available: bigint | null; held: bigint | null; pending: bigint | null })[]>`
    SELECT a.*,
      SUM(l."balance") FILTER (WHERE l."bucket" = 'AVAILABLE')::bigint AS available,
      SUM(l."balance") FILTER (WHERE l."bucket" = 'HELD')::bigint AS held,
      SUM(l."balance") FILTER (WHERE l."bucket" = 'PENDING')::bigint AS pending
    FROM "InternalAccount" a LEFT JOIN "LedgerAccount" l ON l."internalAccountId" = a."id"
    WHERE a."id" IN (${Prisma.join(ids)})
    GROUP BY a."id"`;
  return rows;
}

/** An internal account with its owning customer (null for the platform's own), in one statement. */
export async function findWithOwner(platformId: string, id: string, tx: Tx = db()) {
  const rows = await tx.$queryRaw<(InternalAccountRow & { owner: Record<string, unknown> | null })[]>`
    SELECT a.*, to_jsonb(c) AS owner FROM "InternalAccount" a LEFT JOIN "Customer" c ON c."id" = a."customerId"
    WHERE a."id" = ${id} AND a."platformId" = ${platformId}`;
  const row = rows[0];
  if (!row) return null;
  const { owner, ...account } = row;
  return { account: account as InternalAccountRow, customer: owner ? customerFromJson(owner) : null };
}

/** A Customer row read through to_jsonb: timestamps come back as text. */
function customerFromJson(j: Record<string, unknown>) {
  const date = (v: unknown) => (v ? new Date(`${String(v)}Z`) : null);
  return {
    ...(j as Omit<CustomerRow, 'createdAt' | 'updatedAt' | 'deletedAt'>),
    createdAt: date(j.createdAt)!,
    updatedAt: date(j.updatedAt)!,
    deletedAt: date(j.deletedAt),
  } as CustomerRow;
}
