import { Prisma, queryIn, type Tx } from '../../core/db';
import { prepared } from '../../core/prepared';
import { QUOTE_MOVES, type QuoteMove } from './state';
import type { InternalAccountRow } from '../../accounts/repository';
import type { TransactionRow } from '../transactions/repository';
import type { Insertable, Updateable } from 'kysely';
import { aliased, insertAll, kysely, platformNowOf, unprefix, type DB, type Guard } from '../../core/sql';
import type { PlatformClock } from '../../core/clock';

export type QuoteRow = Prisma.QuoteGetPayload<object>;

export function findById(platformId: string, id: string, tx: Tx): Promise<QuoteRow | null> {
  return tx.quote.findFirst({ where: { platformId, id } });
}

/** The quote locked for the rest of the transaction: executions of one quote serialize here. */
export async function lock(platformId: string, id: string, tx: Tx): Promise<QuoteRow | null> {
  const rows = await queryIn<QuoteRow>(tx, lockById({ platformId, id }));
  return rows[0] ?? null;
}
const lockById = prepared((p: { platformId: string; id: string }) =>
  kysely.selectFrom('Quote').selectAll().where('id', '=', p.id).where('platformId', '=', p.platformId).forUpdate(),
);

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
    (opts.lock ? forExecutionLocked : forExecution)({ platformId, id }),
  );
  if (!rows[0]) return null;
  return {
    quote: unprefix<QuoteRow>(rows[0], Q, 'q__')!,
    transaction: unprefix<TransactionRow>(rows[0], T, 't__')!,
    sourceAccount: unprefix<InternalAccountRow>(rows[0], A, 'a__'),
  };
}
const forExecutionOf = (p: { platformId: string; id: string }) =>
  kysely
    .selectFrom('Quote as q')
    .innerJoin('Transaction as t', 't.id', 'q.transactionId')
    .leftJoin('InternalAccount as a', 'a.id', 'q.sourceAccountId')
    // Each table's columns under a prefix (the three share names like "id" and "status").
    .select([...aliased('q', Q), ...aliased('t', T), ...aliased('a', A)])
    .where('q.id', '=', p.id)
    .where('q.platformId', '=', p.platformId);
const forExecution = prepared(forExecutionOf);
const forExecutionLocked = prepared((p: { platformId: string; id: string }) => forExecutionOf(p).forUpdate('q'));

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
  return queryIn<QuoteRow & PlatformClock>(
    tx,
    (platformId ? expiredOfPlatform : expired)({ wallNow, limit, platformId: platformId ?? '' }),
  );
}
const expiredOf = (p: { wallNow: Date; limit: number; platformId?: string }) =>
  kysely
    .selectFrom('Quote as q')
    .innerJoin('Platform as p', 'p.id', 'q.platformId')
    .selectAll('q')
    .select(['p.clockOffsetMs', 'p.clockFrozenAt'])
    .where('q.status', 'in', ['PENDING', 'PENDING_AUTHORIZATION'])
    .where('q.expiresAt', '<=', platformNowOf('p', p.wallNow))
    .orderBy('q.expiresAt')
    .limit(p.limit)
    .forUpdate('q')
    .skipLocked();
const expired = prepared(expiredOf);
const expiredOfPlatform = prepared((p: { wallNow: Date; limit: number; platformId: string }) =>
  expiredOf(p).where('q.platformId', '=', p.platformId),
);
