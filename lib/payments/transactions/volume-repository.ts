import { db } from '../../core/db';

// Aggregates for the console's overview: what moved per currency since a time, and how many
// transactions wait on the platform's decision.
export interface Volume {
  currency: string;
  count: number;
  amount: bigint;
}

/** Completed outgoing volume (sent side) per currency since `since`. */
export async function completedVolumesSince(platformId: string, since: Date): Promise<Volume[]> {
  const rows = await db().$queryRaw<{ currency: string; count: bigint; amount: bigint }[]>`
    SELECT "sentCurrency" AS currency, count(*)::bigint AS count, COALESCE(sum("sentAmount"), 0)::bigint AS amount
    FROM "Transaction"
    WHERE "platformId" = ${platformId} AND "createdAt" >= ${since}::timestamp(3) AND "status" = 'COMPLETED'
      AND "sentCurrency" IS NOT NULL
    GROUP BY "sentCurrency" ORDER BY "sentCurrency"`;
  return rows.map((r) => ({ currency: r.currency, count: Number(r.count), amount: r.amount }));
}

/** Transactions waiting for POST /transactions/{id}/approve or /reject. */
export function countAwaitingApproval(platformId: string): Promise<number> {
  return db().transaction.count({ where: { platformId, awaitingApproval: true, status: 'PENDING' } });
}
