import { lockOne, Prisma, queryIn, type Tx } from '../../core/db';
import { QUOTE_MOVES, type QuoteMove } from './state';
import type { InternalAccountRow } from '../../accounts/repository';
import type { TransactionRow } from '../transactions/repository';
import type { Insertable, Updateable } from 'kysely';
import { insertAll, platformNow, prefixedColumns, unprefix, type DB, type Guard } from '../../core/sql';
import type { PlatformClock } from '../../core/clock';

export type QuoteRow = Prisma.QuoteGetPayload<object>;

export function findById(platformId: string, id: string, tx: Tx): Promise<QuoteRow | null> {
  return tx.quote.findFirst({ where: { platformId, id } });
}

/** The quote locked for the rest of the transaction: executions of one quote serialize here. */
export async function lock(platformId: string, id: string, tx: Tx): Promise<QuoteRow | null> {
  return lockOne<QuoteRow>(tx, 'Quote', Prisma.sql`"id" = ${id} AND "platformId" = ${platformId}`);
}

export interface ForExecution {
  quote: QuoteRow;
  transaction: TransactionRow;
  sourceAccount: InternalAccountRow | null;
}

const Q = Prisma.QuoteScalarFieldEnum;
const T = Prisma.TransactionScalarFieldEnum;
const A = Prisma.InternalAccountScalarFieldEnum;

/**
 * The quote with its transaction and source internal account (if any), in one read; `lock` takes
 * the quote's row lock for the rest of the transaction.
 */
export async function findForExecution(
  platformId: string,
  id: string,
  opts: { tx: Tx; lock?: boolean },
): Promise<ForExecution | null> {
  const rows = await queryIn<Record<string, unknown>>(
    opts.tx,
    Prisma.sql`
    SELECT ${prefixedColumns('q', Q, 'q__')}, ${prefixedColumns('t', T, 't__')}, ${prefixedColumns('a', A, 'a__')}
    FROM "Quote" q JOIN "Transaction" t ON t."id" = q."transactionId" LEFT JOIN "InternalAccount" a ON a."id" = q."sourceAccountId"
    WHERE q."id" = ${id} AND q."platformId" = ${platformId}
    ${opts.lock ? Prisma.sql`FOR UPDATE OF q` : Prisma.empty}`,
  );
  if (!rows[0]) return null;
  return {
    quote: unprefix<QuoteRow>(rows[0], Q, 'q__')!,
    transaction: unprefix<TransactionRow>(rows[0], T, 't__')!,
    sourceAccount: unprefix<InternalAccountRow>(rows[0], A, 'a__'),
  };
}

/** A new quote, its transaction and their first event, in one statement (foreign keys check at its end). */
export async function insertWithTransaction(
  p: { quote: Insertable<DB['Quote']>; transaction: Insertable<DB['Transaction']>; event: Insertable<DB['Event']> },
  tx: Tx,
): Promise<void> {
  await queryIn(
    tx,
    insertAll([
      { table: 'Transaction', row: p.transaction },
      { table: 'Quote', row: p.quote },
      { table: 'Event', row: p.event },
    ]),
  );
}

/** A move of QUOTE_MOVES as one conditional update; false when the quote was no longer in a `from` state. */
export async function move(
  id: string,
  name: QuoteMove,
  data: Prisma.QuoteUncheckedUpdateInput,
  tx: Tx,
): Promise<boolean> {
  const { from, to } = QUOTE_MOVES[name];
  const n = await tx.quote.updateMany({ where: { id, status: { in: [...from] } }, data: { ...data, status: to } });
  return n.count === 1;
}

/** The same move as a guard of a payment step (ledger.runStep); `required` as the step needs. */
export function moveGuard(id: string, name: QuoteMove, data: Updateable<DB['Quote']>, required = true): Guard {
  const { from, to } = QUOTE_MOVES[name];
  return { table: 'Quote', where: { id, status: from }, set: { ...data, status: to }, required };
}

/**
 * Quotes past their expiry on their platform's clock, still waiting, locked for this transaction.
 * SKIP LOCKED: a quote being executed right now is left to its execution.
 */
export function lockExpired(wallNow: Date, limit: number, platformId: string | undefined, tx: Tx) {
  return tx.$queryRaw<(QuoteRow & PlatformClock)[]>`
    SELECT q.*, p."clockOffsetMs", p."clockFrozenAt" FROM "Quote" q JOIN "Platform" p ON p."id" = q."platformId"
    WHERE q."status" IN ('PENDING', 'PENDING_AUTHORIZATION')
      AND q."expiresAt" <= ${platformNow('p', wallNow)}
      ${platformId ? Prisma.sql`AND q."platformId" = ${platformId}` : Prisma.empty}
    ORDER BY q."expiresAt"
    LIMIT ${limit}
    FOR UPDATE OF q SKIP LOCKED`;
}
