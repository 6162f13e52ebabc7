import { Prisma, db, type Tx } from '../db';
import type { InternalAccountRow } from '../accounts/repository';

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

/** The quote locked for execution, with its source internal account (if any) in the same read. */
export async function lockForExecution(platformId: string, id: string, tx: Tx): Promise<{ quote: QuoteRow; sourceAccount: InternalAccountRow | null } | null> {
  const rows = await tx.$queryRaw<(QuoteRow & { src: Record<string, unknown> | null })[]>`
    SELECT q.*, to_jsonb(a) AS src FROM "Quote" q LEFT JOIN "InternalAccount" a ON a."id" = q."sourceAccountId"
    WHERE q."id" = ${id} AND q."platformId" = ${platformId} FOR UPDATE OF q`;
  if (!rows[0]) return null;
  const { src, ...quote } = rows[0];
  const at = (v: unknown) => new Date(`${String(v)}Z`);
  return { quote: quote as QuoteRow, sourceAccount: src ? ({ ...src, createdAt: at(src.createdAt), updatedAt: at(src.updatedAt) } as unknown as InternalAccountRow) : null };
}

export function findByTransaction(transactionId: string, tx: Tx = db()): Promise<QuoteRow | null> {
  return tx.quote.findUnique({ where: { transactionId } });
}

/** Conditional status change; false when the quote was no longer in one of `from`. */
export async function setStatus(id: string, from: string[], to: string, data: Prisma.QuoteUncheckedUpdateInput, tx: Tx): Promise<boolean> {
  const n = await tx.quote.updateMany({ where: { id, status: { in: from } }, data: { ...data, status: to } });
  return n.count === 1;
}

/**
 * Quotes past their expiry on their platform's clock, still waiting, locked for this transaction.
 * SKIP LOCKED: a quote being executed right now is left to its execution.
 */
export function lockExpired(wallNow: Date, limit: number, platformId: string | undefined, tx: Tx) {
  return tx.$queryRaw<(QuoteRow & { clockOffsetMs: bigint })[]>`
    SELECT q.*, p."clockOffsetMs" FROM "Quote" q JOIN "Platform" p ON p."id" = q."platformId"
    WHERE q."status" IN ('PENDING', 'PENDING_AUTHORIZATION')
      AND q."expiresAt" <= ${wallNow}::timestamp + (p."clockOffsetMs" * interval '1 millisecond')
      ${platformId ? Prisma.sql`AND q."platformId" = ${platformId}` : Prisma.empty}
    ORDER BY q."expiresAt"
    LIMIT ${limit}
    FOR UPDATE OF q SKIP LOCKED`;
}
