import { randomUUID } from 'node:crypto';
import type { RawBuilder } from 'kysely';
import { Prisma, db, pgCode, pgMessage, queryDirect, queryIn, type Tx } from '../core/db';
import type { Amount } from '../core/money';
import { guardSql, insertGrouped, sql, type Guard, type RowWrite } from '../core/sql';

/** A balance-update event rendered by the statement that moves the money (see writeStep). */
export interface Announcement {
  eventId: string;
  platformId: string;
  internalAccountId: string;
  createdAt: Date;
  /** The span recording it, when traced (outbox.ts eventRow: delivery attempts link to it). */
  traceParent: string | null;
  /**
   * The event body for the account's balances after the step. The statement itself computes
   * them, so the body is rendered once with placeholder amounts that the statement replaces.
   */
  body: (balance: { available: bigint; total: bigint }) => string;
}

/** Impossible amounts put into an announcement's body and replaced by the real balances. */
const BALANCE_MARKERS = { available: -9223372036854775001n, total: -9223372036854775002n } as const;

/**
 * One step of a payment as statement parts: guarded state moves (rendered as `UPDATE ...
 * RETURNING 1`; a required one must match exactly one row), further rows to insert, the balance
 * changes and the balance events they produce.
 */
export interface StepSql {
  moves: Guard[];
  writes: RowWrite[];
  deltas: Map<string, bigint>;
  announce: Announcement[];
  at: Date;
}

export type StepOutcome = { kind: 'done' } | { kind: 'stale' } | { kind: 'overdrawn'; account: string };

/**
 * The CTEs that move the money (corridor_apply_deltas, see its migration) as `d`, and render the
 * announcements from the balances it returns: accounts this posting did not touch contribute
 * their stored balances. `ok` is the SQL condition the move depends on.
 */
function moneyCtes(s: StepSql, ok: RawBuilder<unknown>): RawBuilder<unknown>[] {
  const ids = [...s.deltas.keys()].sort();
  const ctes = [
    sql`d AS (SELECT * FROM corridor_apply_deltas(${ok}, ${ids}::text[], ${ids.map((id) => s.deltas.get(id)!)}::bigint[], ${s.at}::timestamp(3)))`,
  ];
  if (!s.announce.length) return ctes;
  const accounts = sql.join(s.announce.map((a) => a.internalAccountId));
  const events = sql.join(
    s.announce.map(
      (a) =>
        sql`(${a.eventId}::text, ${a.platformId}::text, ${a.internalAccountId}::text, ${a.body(BALANCE_MARKERS)}::text, ${a.createdAt}::timestamp(3), ${a.traceParent}::text)`,
    ),
  );
  ctes.push(
    sql`bal AS (
      SELECT "internalAccountId", "bucket", "balance" FROM d WHERE "internalAccountId" IN (${accounts})
      UNION ALL
      SELECT l."internalAccountId", l."bucket", l."balance" FROM "LedgerAccount" l
      WHERE l."internalAccountId" IN (${accounts}) AND l."id" NOT IN (SELECT "id" FROM d)
    )`,
    sql`agg AS (
      SELECT "internalAccountId",
        COALESCE(SUM("balance") FILTER (WHERE "bucket" = 'AVAILABLE'), 0)::bigint AS available,
        COALESCE(SUM("balance"), 0)::bigint AS total
      FROM bal GROUP BY "internalAccountId"
    )`,
    sql`ev AS (
      INSERT INTO "Event" ("id", "platformId", "type", "payload", "createdAt", "traceParent")
      SELECT e.id, e.platform, 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        replace(replace(e.template, ${BALANCE_MARKERS.available.toString()}::text, agg.available::text), ${BALANCE_MARKERS.total.toString()}::text, agg.total::text),
        e.at, e.trace
      FROM (VALUES ${events}) AS e(id, platform, account, template, at, trace) JOIN agg ON agg."internalAccountId" = e.account
    )`,
  );
  return ctes;
}

function outcomeOf(err: unknown): StepOutcome | null {
  const code = pgCode(err);
  if (code === 'CR003') return { kind: 'stale' };
  if (code === 'CR001') return { kind: 'overdrawn', account: /ACCOUNT (\S+)/.exec(pgMessage(err) ?? '')?.[1] ?? '' };
  return null;
}

const cte = (name: string, body: unknown) => sql`${sql.raw(name)} AS (${body})`;

/**
 * The whole step in one statement: the moves, the rows, the money, the events. When a required
 * move matches nothing (the payment moved on) or an account would be overdrawn, the function
 * raises and the statement leaves nothing behind. Outside a transaction only.
 */
export async function writeStep(s: StepSql): Promise<StepOutcome> {
  const moves = s.moves.map((m, i) => cte(`m${i}`, guardSql(m)));
  const required = s.moves
    .map((m, i) => (m.required ? sql.raw(`(SELECT count(*) FROM m${i}) = 1`) : null))
    .filter((x) => x !== null);
  const ok = required.length ? sql.join(required, sql` AND `) : sql`true`;
  const writes = insertGrouped(s.writes).map((w, i) => cte(`w${i}`, w));
  try {
    await queryDirect(
      sql`WITH ${sql.join([...moves, ...writes, ...moneyCtes(s, ok)], sql`, `)} SELECT count(*)::int AS moved FROM d`,
    );
    return { kind: 'done' };
  } catch (err) {
    const outcome = outcomeOf(err);
    if (outcome) return outcome;
    throw err;
  }
}

/**
 * The step inside a caller's transaction: the required moves first (a stale step then changes
 * nothing and the transaction may go on), then the other moves, rows, money and events in a
 * second statement. Overdrawn aborts the transaction: the caller must roll back.
 */
export async function writeStepIn(tx: Tx, s: StepSql): Promise<StepOutcome> {
  const required = s.moves.filter((m) => m.required);
  if (required.length) {
    const moves = required.map((m, i) => cte(`m${i}`, guardSql(m)));
    const counts = sql.raw(required.map((_, i) => `(SELECT count(*) FROM m${i})::int AS m${i}`).join(', '));
    const [row] = await queryIn<Record<string, number>>(tx, sql`WITH ${sql.join(moves, sql`, `)} SELECT ${counts}`);
    const n = required.map((_, i) => row[`m${i}`]);
    if (n.every((x) => x === 0)) return { kind: 'stale' };
    if (!n.every((x) => x === 1)) throw new Error(`a payment step matched ${n.join('/')} rows of its moves`);
  }
  const rest = s.moves.filter((m) => !m.required).map((m, i) => cte(`o${i}`, guardSql(m)));
  const writes = insertGrouped(s.writes).map((w, i) => cte(`w${i}`, w));
  try {
    await queryIn(
      tx,
      sql`WITH ${sql.join([...rest, ...writes, ...moneyCtes(s, sql`true`)], sql`, `)} SELECT count(*)::int AS moved FROM d`,
    );
    return { kind: 'done' };
  } catch (err) {
    const outcome = outcomeOf(err);
    if (outcome) return outcome;
    throw err;
  }
}

type TransferRow = {
  id: string;
  platformId: string;
  kind: string;
  transactionId: string | null;
  description: string | null;
  createdAt: Date;
};

/** The rows of a posting (its transfer, then its entries), for a step's statement. */
export function transferRows(t: TransferRow, legs: (Amount & { account: string })[]): RowWrite[] {
  return [
    { table: 'LedgerTransfer', row: t },
    ...legs.map((l) => ({
      table: 'LedgerEntry' as const,
      row: {
        id: randomUUID(),
        transferId: t.id,
        ledgerAccountId: l.account,
        currency: l.currency,
        amount: l.amount,
        createdAt: t.createdAt,
      },
    })),
  ];
}

export function balancesOf(internalAccountIds: string[], tx: Tx) {
  return tx.ledgerAccount.findMany({
    where: { internalAccountId: { in: internalAccountIds } },
    select: { internalAccountId: true, bucket: true, balance: true },
  });
}

/** The kinds of a transaction's postings. */
export function transfersOf(transactionId: string, tx: Tx) {
  return tx.ledgerTransfer.findMany({ where: { transactionId }, select: { kind: true } });
}

/** Ledger health, for tests and the console: every figure here must be zero/empty. */
export async function audit(platformId?: string) {
  const scope = platformId ? Prisma.sql`WHERE a."platformId" = ${platformId}` : Prisma.empty;
  const scopeT = platformId ? Prisma.sql`WHERE t."platformId" = ${platformId}` : Prisma.empty;
  const currencySums = await db().$queryRaw<{ platformId: string; currency: string; total: bigint }[]>`
    SELECT a."platformId", a."currency", SUM(a."balance")::bigint AS total FROM "LedgerAccount" a ${scope}
    GROUP BY a."platformId", a."currency" HAVING SUM(a."balance") <> 0`;
  const negative = await db().$queryRaw<{ id: string; balance: bigint }[]>`
    SELECT a."id", a."balance" FROM "LedgerAccount" a ${scope}
    ${platformId ? Prisma.sql`AND` : Prisma.sql`WHERE`} NOT a."allowNegative" AND a."balance" < 0`;
  const drift = await db().$queryRaw<{ id: string; balance: bigint; entries: bigint }[]>`
    SELECT a."id", a."balance", COALESCE(SUM(e."amount"), 0)::bigint AS entries
    FROM "LedgerAccount" a LEFT JOIN "LedgerEntry" e ON e."ledgerAccountId" = a."id" ${scope}
    GROUP BY a."id", a."balance" HAVING a."balance" <> COALESCE(SUM(e."amount"), 0)`;
  const unbalanced = await db().$queryRaw<{ id: string; currency: string; total: bigint }[]>`
    SELECT t."id", e."currency", SUM(e."amount")::bigint AS total
    FROM "LedgerTransfer" t JOIN "LedgerEntry" e ON e."transferId" = t."id" ${scopeT}
    GROUP BY t."id", e."currency" HAVING SUM(e."amount") <> 0`;
  return { currencySums, negative, drift, unbalanced };
}
