import { db } from '../../core/db';
import { prefixEnd, runningTotals, type RunningTotal } from '../../core/running-totals';

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

/** One currency's completed volume on each UTC day of a window, oldest first, zero on quiet days. */
export interface DailyVolume {
  currency: string;
  days: { day: string; count: number; amount: bigint }[];
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The running totals' `completed:<day>:<currency>` rows laid out as a series per currency over
 * the `days` UTC days ending on `last`'s day. A currency with nothing in the window is left out.
 */
export function dailySeries(totals: Map<string, RunningTotal>, last: Date, days: number): DailyVolume[] {
  const window = Array.from({ length: days }, (_, i) => dayOf(new Date(last.getTime() - (days - 1 - i) * 86400_000)));
  const at = new Map(window.map((d, i) => [d, i]));
  const out = new Map<string, DailyVolume>();
  for (const [key, t] of totals) {
    const [, day, currency] = key.split(':');
    const i = at.get(day);
    if (i === undefined || !currency || (t.n === 0n && t.amount === 0n)) continue;
    let v = out.get(currency);
    if (!v) out.set(currency, (v = { currency, days: window.map((d) => ({ day: d, count: 0, amount: 0n })) }));
    v.days[i].count += Number(t.n);
    v.days[i].amount += t.amount;
  }
  return [...out.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Completed volume per currency per UTC day, the `days` days to `last`'s day (a few rows a day). */
export async function dailyCompletedVolumes(platformId: string, last: Date, days = 30): Promise<DailyVolume[]> {
  const first = dayOf(new Date(last.getTime() - (days - 1) * 86400_000));
  const totals = await runningTotals(platformId, `completed:${first}:`, `completed:${dayOf(last)}:\u007f`);
  return dailySeries(totals, last, days);
}
