import { db } from '../../core/db';
import { prefixEnd, runningTotals } from '../../core/running-totals';

// Aggregates for the console's overview: what moved per currency since a time, and how many
// transactions wait on the platform's decision.
export interface Volume {
  currency: string;
  count: number;
  amount: bigint;
}

/**
 * Completed volume (sent side) per currency of the transactions created on the UTC days from
 * `since`'s day to today. Kept by a trigger as transactions complete (running totals per day and
 * currency): about 30 rows a currency for a month, however many payments it held.
 */
export async function completedVolumesSince(platformId: string, since: Date): Promise<Volume[]> {
  const from = `completed:${since.toISOString().slice(0, 10)}:`;
  const totals = await runningTotals(platformId, from, prefixEnd('completed:'));
  const out = new Map<string, Volume>();
  for (const [key, t] of totals) {
    const currency = key.slice(key.lastIndexOf(':') + 1);
    const v = out.get(currency) ?? { currency, count: 0, amount: 0n };
    v.count += Number(t.n);
    v.amount += t.amount;
    out.set(currency, v);
  }
  return [...out.values()].filter((v) => v.count !== 0).sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Transactions waiting for POST /transactions/{id}/approve or /reject. */
export function countAwaitingApproval(platformId: string): Promise<number> {
  return db().transaction.count({ where: { platformId, awaitingApproval: true, status: 'PENDING' } });
}
