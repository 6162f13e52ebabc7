import { Prisma, db, type Tx } from '../../core/db';
import { type Cursor } from '../../core/pagination';
import type { Guard } from '../../core/sql';
import { MOVES, type Move } from './state';

export type TransactionRow = Prisma.TransactionGetPayload<object>;

export async function insert(row: Prisma.TransactionUncheckedCreateInput, tx: Tx): Promise<TransactionRow> {
  return tx.transaction.create({ data: row });
}

export function findById(platformId: string, id: string, tx: Tx = db()): Promise<TransactionRow | null> {
  return tx.transaction.findFirst({ where: { platformId, id } });
}

export function findByIdUnscoped(id: string, tx: Tx = db()): Promise<TransactionRow | null> {
  return tx.transaction.findUnique({ where: { id } });
}

/**
 * Applies a state move if the row is still in an allowed state (one conditional UPDATE ...
 * RETURNING); returns the updated row, or null when the row had already moved on.
 */
export async function transition(
  id: string,
  move: Move,
  data: Prisma.TransactionUncheckedUpdateInput,
  tx: Tx,
): Promise<TransactionRow | null> {
  const m = MOVES[move];
  try {
    return await tx.transaction.update({ where: { id, status: { in: [...m.from] } }, data: { ...data, status: m.to } });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2025') return null; // no row in an allowed state
    throw err;
  }
}

/**
 * The same move as a guard of a payment step written in one statement with its other rows
 * (ledger.runStep). Required: a stale step writes nothing.
 */
export function moveGuard(
  id: string,
  move: Move,
  data: Partial<Record<keyof Prisma.TransactionUncheckedUpdateInput, unknown>>,
): Guard {
  const m = MOVES[move];
  return { table: 'Transaction', where: { id, status: m.from }, set: { ...data, status: m.to }, required: true };
}

export async function update(
  id: string,
  data: Prisma.TransactionUncheckedUpdateInput,
  tx: Tx,
): Promise<TransactionRow> {
  return tx.transaction.update({ where: { id }, data });
}

export interface TransactionFilter {
  customerId?: string;
  platformCustomerId?: string;
  accountIdentifier?: string;
  senderAccountIdentifier?: string;
  receiverAccountIdentifier?: string;
  status?: string;
  type?: string;
  reference?: string;
  startDate?: Date;
  endDate?: Date;
}

function where(platformId: string, f: TransactionFilter): Prisma.TransactionWhereInput {
  const and: Prisma.TransactionWhereInput[] = [{ platformId }];
  // The platform's own transactions are stored without a customer and shown with the platform's
  // id and "PLATFORM" (presenter); filtering by those values finds them (reference: customerId).
  if (f.customerId) and.push(f.customerId === platformId ? { customerId: null } : { customerId: f.customerId });
  if (f.platformCustomerId) {
    and.push(
      f.platformCustomerId === 'PLATFORM'
        ? { OR: [{ platformCustomerId: 'PLATFORM' }, { customerId: null }] }
        : { platformCustomerId: f.platformCustomerId },
    );
  }
  if (f.status) and.push({ status: f.status });
  if (f.type) and.push({ type: f.type });
  if (f.reference) and.push({ reference: f.reference });
  if (f.startDate) and.push({ createdAt: { gte: f.startDate } });
  if (f.endDate) and.push({ createdAt: { lte: f.endDate } });
  // An account identifier is an internal or external account id, or a UMA address, on either side
  // (a pull-funded payout to an external account names two external accounts).
  const either = (id: string): Prisma.TransactionWhereInput => ({
    OR: [
      { internalAccountId: id },
      { externalAccountId: id },
      { source: { path: ['accountId'], equals: id } },
      { destination: { path: ['accountId'], equals: id } },
      { source: { path: ['umaAddress'], equals: id } },
      { destination: { path: ['umaAddress'], equals: id } },
    ],
  });
  if (f.accountIdentifier) and.push(either(f.accountIdentifier));
  if (f.senderAccountIdentifier) {
    and.push({
      OR: [
        { source: { path: ['accountId'], equals: f.senderAccountIdentifier } },
        { source: { path: ['umaAddress'], equals: f.senderAccountIdentifier } },
      ],
    });
  }
  if (f.receiverAccountIdentifier) {
    and.push({
      OR: [
        { destination: { path: ['accountId'], equals: f.receiverAccountIdentifier } },
        { destination: { path: ['umaAddress'], equals: f.receiverAccountIdentifier } },
      ],
    });
  }
  return { AND: and };
}

export async function list(
  platformId: string,
  f: TransactionFilter,
  limit: number,
  order: 'asc' | 'desc',
  cursor?: Cursor,
) {
  const base = where(platformId, f);
  const after: Prisma.TransactionWhereInput = cursor
    ? order === 'desc'
      ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
      : { OR: [{ createdAt: { gt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { gt: cursor.id } }] }
    : {};
  const [rows, total] = await Promise.all([
    db().transaction.findMany({
      where: { AND: [base, after] },
      orderBy: [{ createdAt: order }, { id: order }],
      take: limit + 1,
    }),
    db().transaction.count({ where: base }),
  ]);
  return { rows, total };
}
