import { Prisma, db, queryIn, type Tx } from '../core/db';
import { insertAll, prefixedColumns, unprefix, type Guard, type RowWrite } from '../core/sql';
import type { CustomerRow } from '../customers/repository';
import { countFromCounters, listRows, orderOf, type ListRequest, bounded } from '../core/list';

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
export async function insertWrites(writes: RowWrite[], tx: Tx): Promise<void> {
  if (writes.length) await queryIn(tx, insertAll(writes));
}

export function findById(platformId: string, id: string, tx: Tx): Promise<InternalAccountRow | null> {
  return tx.internalAccount.findFirst({ where: { platformId, id } });
}

export function byIds(ids: string[], tx: Tx): Promise<InternalAccountRow[]> {
  return tx.internalAccount.findMany({ where: { id: { in: ids } } });
}

export function platformAccounts(platformId: string, tx: Tx): Promise<InternalAccountRow[]> {
  return tx.internalAccount.findMany({ where: { platformId, customerId: null }, orderBy: { createdAt: 'asc' } });
}

export function forCustomer(platformId: string, customerId: string, tx: Tx): Promise<InternalAccountRow[]> {
  return tx.internalAccount.findMany({
    where: { platformId, customerId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
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

/** The filters the ListCount triggers count: the owner alone ('customers' or 'platform'). */
function counterKey(f: InternalAccountFilter): string | undefined {
  return f.customerId || f.currency || f.type ? undefined : f.owner;
}

export function list(platformId: string, f: InternalAccountFilter, req: ListRequest) {
  const base = where(platformId, f);
  const key = counterKey(f);
  return listRows(req, {
    rows: (after, take) => db().internalAccount.findMany({ where: { AND: [base, after] }, orderBy: orderOf(), take }),
    count: (cap) =>
      key
        ? countFromCounters(platformId, 'internalAccounts', key)
        : db().internalAccount.count({ where: base, ...bounded(cap) }),
    countIsCheap: key !== undefined,
  });
}

export async function touch(ids: string[], at: Date, tx: Tx): Promise<void> {
  await tx.internalAccount.updateMany({ where: { id: { in: ids } }, data: { updatedAt: at } });
}

export async function setStatus(
  platformId: string,
  id: string,
  from: string[],
  to: string,
  at: Date,
  tx: Tx,
): Promise<boolean> {
  const n = await tx.internalAccount.updateMany({
    where: { platformId, id, status: { in: from } },
    data: { status: to, updatedAt: at },
  });
  return n.count === 1;
}

/**
 * A payment step's guard (a check, required): the account still ACTIVE when the step is
 * written, so a step built from an earlier read cannot send from an account closed since.
 */
export function activeGuard(id: string): Guard {
  return { table: 'InternalAccount', where: { id, status: 'ACTIVE' }, required: true };
}

export async function setPrivacy(id: string, privateEnabled: boolean, at: Date, tx: Tx): Promise<void> {
  await tx.internalAccount.update({ where: { id }, data: { privateEnabled, updatedAt: at } });
}

/** Internal accounts with their three bucket balances, in one statement. */
export async function withBalances(ids: string[], tx: Tx) {
  if (!ids.length) return [];
  const rows = await tx.$queryRaw<
    (InternalAccountRow & { available: bigint | null; held: bigint | null; pending: bigint | null })[]
  >`
    SELECT a.*,
      SUM(l."balance") FILTER (WHERE l."bucket" = 'AVAILABLE')::bigint AS available,
      SUM(l."balance") FILTER (WHERE l."bucket" = 'HELD')::bigint AS held,
      SUM(l."balance") FILTER (WHERE l."bucket" = 'PENDING')::bigint AS pending
    FROM "InternalAccount" a LEFT JOIN "LedgerAccount" l ON l."internalAccountId" = a."id"
    WHERE a."id" IN (${Prisma.join(ids)})
    GROUP BY a."id"`;
  return rows;
}

const A = Prisma.InternalAccountScalarFieldEnum;
const C = Prisma.CustomerScalarFieldEnum;

/** An internal account with its owning customer (null for the platform's own), in one statement. */
export async function findWithOwner(
  platformId: string,
  id: string,
  tx: Tx,
): Promise<{ account: InternalAccountRow; customer: CustomerRow | null } | null> {
  const rows = await queryIn<Record<string, unknown>>(
    tx,
    Prisma.sql`
    SELECT ${prefixedColumns('a', A, 'a__')}, ${prefixedColumns('c', C, 'c__')}
    FROM "InternalAccount" a LEFT JOIN "Customer" c ON c."id" = a."customerId"
    WHERE a."id" = ${id} AND a."platformId" = ${platformId}`,
  );
  if (!rows[0]) return null;
  return {
    account: unprefix<InternalAccountRow>(rows[0], A, 'a__')!,
    customer: unprefix<CustomerRow>(rows[0], C, 'c__'),
  };
}
