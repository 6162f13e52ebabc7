import { Prisma, db, type Tx } from '../db';

export type QuoteRow = Prisma.QuoteGetPayload<object>;

export async function insert(row: Prisma.QuoteUncheckedCreateInput, tx: Tx): Promise<QuoteRow> {
  return tx.quote.create({ data: row });
}

export function findById(platformId: string, id: string, tx: Tx = db()): Promise<QuoteRow | null> {
  return tx.quote.findFirst({ where: { platformId, id } });
}

/** The quote locked for the rest of the transaction: executions of one quote serialize here. */
export async function lock(platformId: string, id: string, tx: Tx): Promise<QuoteRow | null> {
  const rows = await tx.$queryRaw<QuoteRow[]>`SELECT * FROM "Quote" WHERE "id" = ${id} AND "platformId" = ${platformId} FOR UPDATE`;
  return rows[0] ?? null;
}

export function findByTransaction(transactionId: string, tx: Tx = db()): Promise<QuoteRow | null> {
  return tx.quote.findUnique({ where: { transactionId } });
}

/** Conditional status change; false when the quote was no longer in one of `from`. */
export async function setStatus(id: string, from: string[], to: string, data: Prisma.QuoteUncheckedUpdateInput, tx: Tx): Promise<boolean> {
  const n = await tx.quote.updateMany({ where: { id, status: { in: from } }, data: { ...data, status: to } });
  return n.count === 1;
}

export function findUnscoped(id: string, tx: Tx = db()): Promise<QuoteRow | null> {
  return tx.quote.findUnique({ where: { id } });
}
