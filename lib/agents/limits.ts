import type { Tx } from '../core/db';
import * as repo from './repository';
import { forbidden } from './policy';
import type { AgentPolicy } from './schema';

// Daily and monthly counters of an agent, in its policy currency. Periods are UTC days and months
// of the platform's clock (now(), which the sandbox clock moves): a new day is simply a new row,
// so usage "resets" at the boundary without any job.

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const monthOf = (at: Date) => at.toISOString().slice(0, 7);
export const periodsAt = (at: Date) => ({ day: `D${dayOf(at)}`, month: `M${monthOf(at)}` });

/** What an action counted against the limits, kept on the action to give back on rejection. */
export interface Reservation {
  amount: string;
  periods: string[];
}

/**
 * Counts `amount` (policy currency) and one transaction against today and this month, within the
 * policy's limits, in the caller's transaction: the effect and its counting commit together.
 */
export async function reserve(
  agentId: string,
  policy: AgentPolicy,
  amount: bigint,
  at: Date,
  tx: Tx,
): Promise<Reservation> {
  const { day, month } = periodsAt(at);
  const l = policy.spendingLimits;
  if (!(await repo.reserveUsage(agentId, day, amount, l.dailyLimit ?? null, l.dailyTransactionLimit ?? null, tx))) {
    const [row] = await repo.usageRows(agentId, [day], tx);
    const countHit = l.dailyTransactionLimit !== undefined && (row?.count ?? 0) + 1 > l.dailyTransactionLimit;
    throw forbidden(
      countHit
        ? `The agent's daily transaction limit of ${l.dailyTransactionLimit} is reached`
        : `${amount} ${l.currency} would exceed the agent's daily limit of ${l.dailyLimit} ${l.currency} (used today: ${row?.amount ?? 0n})`,
      countHit
        ? { reason: 'DAILY_TRANSACTION_LIMIT_EXCEEDED', limit: l.dailyTransactionLimit }
        : { reason: 'DAILY_LIMIT_EXCEEDED', limit: l.dailyLimit, currency: l.currency },
    );
  }
  if (!(await repo.reserveUsage(agentId, month, amount, l.monthlyLimit ?? null, null, tx)))
    throw forbidden(
      `${amount} ${l.currency} would exceed the agent's monthly limit of ${l.monthlyLimit} ${l.currency}`,
      {
        reason: 'MONTHLY_LIMIT_EXCEEDED',
        limit: l.monthlyLimit,
        currency: l.currency,
      },
    );
  return { amount: amount.toString(), periods: [day, month] };
}

export async function release(agentId: string, reservation: unknown, tx: Tx): Promise<void> {
  const r = reservation as Reservation | null;
  if (!r) return;
  for (const period of r.periods) await repo.releaseUsage(agentId, period, BigInt(r.amount), tx);
}

/** AgentUsage: today's and this month's counters, and when they reset. */
export async function usageOf(agentId: string, at: Date, tx: Tx) {
  const { day, month } = periodsAt(at);
  const rows = await repo.usageRows(agentId, [day, month], tx);
  const d = rows.find((r) => r.period === day);
  const m = rows.find((r) => r.period === month);
  const tomorrow = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
  const nextMonth = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return {
    dailyTransactionCount: d?.count ?? 0,
    dailySpend: d?.amount ?? 0n,
    dailyResetDate: dayOf(tomorrow),
    monthlySpend: m?.amount ?? 0n,
    monthlyResetMonth: monthOf(nextMonth),
  };
}
