import { Prisma, db } from './db';

// Totals kept as the rows change (migration 20261128100000_running_totals), so that a figure over
// every account or every payment costs a few rows to read at any size. Writers (the ledger's
// posting function, a trigger on transactions) only append to "RunningTotalChange"; nobody waits
// on a shared counter row. `foldRunningTotals` (a worker sweep) moves the changes into
// "RunningTotal"; `runningTotals` sums both tables in one statement, so a change is counted once
// whether it was folded yet or not.

export interface RunningTotal {
  n: bigint;
  amount: bigint;
}

/** The totals whose keys lie in [from, to), by key, as of one snapshot. */
export async function runningTotals(platformId: string, from: string, to: string): Promise<Map<string, RunningTotal>> {
  const rows = await db().$queryRaw<{ key: string; n: bigint; amount: bigint }[]>`
    SELECT "key", sum("n")::bigint AS n, sum("amount")::bigint AS amount FROM (
      SELECT "key", "n", "amount" FROM "RunningTotal"
      WHERE "platformId" = ${platformId} AND "key" >= ${from} AND "key" < ${to}
      UNION ALL
      SELECT "key", "n", "amount" FROM "RunningTotalChange"
      WHERE "platformId" = ${platformId} AND "key" >= ${from} AND "key" < ${to}
    ) t GROUP BY "key" ORDER BY "key"`;
  return new Map(rows.map((r) => [r.key, { n: r.n, amount: r.amount }]));
}

/**
 * Folds the appended changes (of one platform, or all) into the totals: one statement deletes
 * them and adds their sums, so a concurrent reader sees them on one side or the other, and two
 * folding processes never take the same change twice (the second skips rows the first deleted).
 * Returns how many changes it folded. With `limit`, at most that many (the worker's paced passes,
 * lib/core/housekeeping.ts), skipping changes another process is folding at that moment.
 */
export async function foldRunningTotals(platformId?: string, limit?: number): Promise<number> {
  const scope = platformId ? Prisma.sql`WHERE "platformId" = ${platformId}` : Prisma.empty;
  const which =
    limit === undefined
      ? scope
      : Prisma.sql`WHERE ctid = ANY(ARRAY(SELECT ctid FROM "RunningTotalChange" ${scope} LIMIT ${limit} FOR UPDATE SKIP LOCKED))`;
  const rows = await db().$queryRaw<{ folded: number }[]>`
    WITH moved AS (DELETE FROM "RunningTotalChange" ${which} RETURNING "platformId", "key", "n", "amount"),
    added AS (
      INSERT INTO "RunningTotal" ("platformId", "key", "n", "amount")
      SELECT "platformId", "key", sum("n"), sum("amount") FROM moved GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT ("platformId", "key") DO UPDATE
        SET "n" = "RunningTotal"."n" + EXCLUDED."n", "amount" = "RunningTotal"."amount" + EXCLUDED."amount"
    )
    SELECT count(*)::int AS folded FROM moved`;
  return rows[0]?.folded ?? 0;
}

/**
 * The keys' upper bound for a prefix: every key starting with `prefix` sorts below it (keys are
 * ASCII: currency codes, bucket names, ISO dates).
 */
export const prefixEnd = (prefix: string): string =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
