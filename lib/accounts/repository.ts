import { db, type Tx } from '../db';
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

export async function insertMany(rows: InternalAccountRow[], tx: Tx): Promise<void> {
  if (rows.length) await tx.internalAccount.createMany({ data: rows });
}

export function findById(platformId: string, id: string, tx: Tx = db()): Promise<InternalAccountRow | null> {
  return tx.internalAccount.findFirst({ where: { platformId, id } });
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
