import { formatMajorInput } from '../core/amount-input';

// Limits an admin is about to save that contradict each other or what the agent already spent:
// legal for the API (each limit is checked on its own), but almost always a slip, so the console
// asks before saving them. Pure, so the policy form runs it in the browser and tests run it here.

export interface LimitsToSave {
  currency: string;
  /** Minor units; null: no limit. */
  perTransactionLimit: bigint;
  dailyLimit: bigint | null;
  monthlyLimit: bigint | null;
  dailyTransactionLimit: number | null;
}

export interface UsageNow {
  dailySpend: bigint;
  monthlySpend: bigint;
  dailyTransactionCount: number;
}

export function limitWarnings(l: LimitsToSave, usage: UsageNow): string[] {
  const m = (v: bigint) => `${formatMajorInput(v, l.currency)} ${l.currency}`;
  const out: string[] = [];
  if (l.dailyLimit !== null && l.dailyLimit < l.perTransactionLimit)
    out.push(
      `The daily limit (${m(l.dailyLimit)}) is below the limit per transaction (${m(l.perTransactionLimit)}): no payment above ${m(l.dailyLimit)} can pass.`,
    );
  if (l.monthlyLimit !== null && l.dailyLimit !== null && l.monthlyLimit < l.dailyLimit)
    out.push(`The monthly limit (${m(l.monthlyLimit)}) is below the daily limit (${m(l.dailyLimit)}).`);
  if (l.monthlyLimit !== null && l.dailyLimit === null && l.monthlyLimit < l.perTransactionLimit)
    out.push(
      `The monthly limit (${m(l.monthlyLimit)}) is below the limit per transaction (${m(l.perTransactionLimit)}).`,
    );
  if (l.dailyLimit !== null && l.dailyLimit < usage.dailySpend)
    out.push(
      `The agent already spent ${m(usage.dailySpend)} today, more than the new daily limit of ${m(l.dailyLimit)}: it can spend nothing more today.`,
    );
  if (l.monthlyLimit !== null && l.monthlyLimit < usage.monthlySpend)
    out.push(
      `The agent already spent ${m(usage.monthlySpend)} this month, more than the new monthly limit of ${m(l.monthlyLimit)}.`,
    );
  if (l.dailyTransactionLimit !== null && l.dailyTransactionLimit < usage.dailyTransactionCount)
    out.push(
      `The agent already made ${usage.dailyTransactionCount} transactions today, more than the new limit of ${l.dailyTransactionLimit} a day.`,
    );
  if (l.dailyTransactionLimit === 0) out.push('Zero transactions a day: the agent cannot pay at all.');
  return out;
}
