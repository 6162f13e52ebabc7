import type { PolicyForm as PolicyChange } from '@/app/console/_lib/actions';
import { parseMajorAmount } from '@/lib/core/amount-input';
import { limitWarnings } from '@/lib/agents/limit-warnings';

// The policy form's values read and checked in the browser (./policy-form.tsx): amounts typed in
// major units become minor units, only what differs from the policy in force is kept, and the
// limits about to be saved are checked against each other and today's usage.

export interface PolicyValues {
  defaultExecutionMode: string;
  currency: string;
  /** Minor units as digits; '' where there is none. */
  perTransactionLimit: string;
  dailyLimit: string;
  monthlyLimit: string;
  dailyTransactionLimit: string;
  approvalThreshold: string;
  approvalThresholdCurrency: string;
  permissions: string[];
  /** null: any account of the customer. */
  allowedAccountIds: string[] | null;
}
export interface PolicyUsage {
  dailySpend: string;
  monthlySpend: string;
  dailyTransactionCount: number;
}

export type Errors = Partial<Record<string, string>>;
export const AMOUNTS = ['perTransactionLimit', 'dailyLimit', 'monthlyLimit', 'approvalThreshold'] as const;
const sameList = (a: string[] | null, b: string[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** What the form holds, read and checked: the change to send, or the errors by field. */
export function readForm(f: FormData, current: PolicyValues, thresholdCurrency: string) {
  const errors: Errors = {};
  const text = (k: string) => String(f.get(k) ?? '').trim();
  const minor: Record<string, string> = {};
  for (const k of AMOUNTS) {
    const t = text(k);
    if (!t && k !== 'perTransactionLimit') {
      minor[k] = '';
      continue;
    }
    const r = parseMajorAmount(t, k === 'approvalThreshold' ? thresholdCurrency : current.currency);
    if (r.ok) minor[k] = r.minor.toString();
    else errors[k] = r.message;
  }
  const count = text('dailyTransactionLimit');
  if (count && !/^\d{1,10}$/.test(count)) errors.dailyTransactionLimit = 'A whole number of transactions';
  const permissions = f.getAll('permissions').map(String);
  const allowed = text('accounts') === 'only' ? f.getAll('allowedAccountIds').map(String) : null;
  if (allowed && !allowed.length) errors.allowedAccountIds = 'Choose at least one account, or allow any account';
  const change: PolicyChange = {};
  const mode = text('defaultExecutionMode');
  if (mode !== current.defaultExecutionMode) change.defaultExecutionMode = mode;
  for (const k of ['perTransactionLimit', 'dailyLimit', 'monthlyLimit'] as const)
    if (minor[k] !== undefined && minor[k] !== current[k]) change[k] = minor[k];
  // The API cannot unset the count limit: empty leaves it as it is.
  if (count && count !== current.dailyTransactionLimit) change.dailyTransactionLimit = count;
  if (
    minor.approvalThreshold !== current.approvalThreshold ||
    thresholdCurrency !== current.approvalThresholdCurrency
  ) {
    change.approvalThreshold = minor.approvalThreshold ?? '';
    change.approvalThresholdCurrency = thresholdCurrency;
  }
  if (!sameList(permissions, current.permissions)) change.permissions = permissions;
  if (!sameList(allowed, current.allowedAccountIds)) change.allowedAccountIds = allowed;
  return { errors, change, minor, count };
}

export function warningsOf(r: ReturnType<typeof readForm>, current: PolicyValues, usage: PolicyUsage) {
  const big = (v: string | undefined, fallback: string) => {
    const s = v ?? fallback;
    return s === '' ? null : BigInt(s);
  };
  const count = r.count || current.dailyTransactionLimit;
  return limitWarnings(
    {
      currency: current.currency,
      perTransactionLimit: big(r.minor.perTransactionLimit, current.perTransactionLimit) ?? 0n,
      dailyLimit: big(r.minor.dailyLimit, current.dailyLimit),
      monthlyLimit: big(r.minor.monthlyLimit, current.monthlyLimit),
      dailyTransactionLimit: count === '' ? null : Number(count),
    },
    {
      dailySpend: BigInt(usage.dailySpend),
      monthlySpend: BigInt(usage.monthlySpend),
      dailyTransactionCount: usage.dailyTransactionCount,
    },
  );
}
