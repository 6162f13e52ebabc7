import { DomainError, fieldError } from '../core/errors';
import { isRateCurrency, midRate, minorRate } from '../fx/rates';
import type { AgentPermission, AgentPolicy, AgentPolicyUpdate } from './schema';

// What an agent's policy allows and decides: permissions, the accounts it may touch, whether an
// amount is within its per-transaction limit, and whether an action runs at once (AUTO) or waits
// for the platform (APPROVAL_REQUIRED, a per-account rule, or an amount above the threshold).
// Pure functions of the policy; the daily and monthly counters are lib/agents/limits.ts.

export const forbidden = (message: string, details: Record<string, unknown>) =>
  new DomainError('FORBIDDEN', message, details);

export function requirePermission(policy: AgentPolicy, permission: AgentPermission | AgentPermission[]): void {
  const anyOf = Array.isArray(permission) ? permission : [permission];
  if (anyOf.some((p) => policy.permissions.includes(p))) return;
  throw forbidden(`The agent's policy does not grant ${anyOf.join(' or ')}`, {
    reason: 'PERMISSION_DENIED',
    requiredPermission: anyOf.length === 1 ? anyOf[0] : anyOf,
    agentPermissions: policy.permissions,
  });
}

/** An internal account outside `accountRestrictions.allowedAccountIds` is refused. */
export function requireAllowedAccount(policy: AgentPolicy, internalAccountId: string): void {
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  if (allowed && !allowed.includes(internalAccountId))
    throw forbidden(`The agent's policy does not allow it to use account ${internalAccountId}`, {
      reason: 'ACCOUNT_NOT_ALLOWED',
      accountId: internalAccountId,
    });
}

/**
 * `amount` (smallest units of `from`) in smallest units of `to`, at the mid-market rate of now,
 * rounded up: a limit is never passed by rounding.
 */
export function convert(amount: bigint, from: string, to: string, at: Date): bigint {
  if (from === to) return amount;
  if (!isRateCurrency(from) || !isRateCurrency(to))
    throw forbidden(`No exchange rate between ${from} and ${to} to check the agent's limits`, {
      reason: 'NO_RATE',
      currency: from,
    });
  const r = minorRate(from, to, midRate(from, to, at).rate);
  return (amount * r.num + r.den - 1n) / r.den;
}

export interface Facts {
  /** In smallest units of `currency` (the internal account's). */
  amount: bigint;
  currency: string;
  internalAccountId: string;
}

/**
 * Checks the account and per-transaction limit, and decides AUTO or approval. Returns the amount
 * in the policy currency (what counts against the daily and monthly limits).
 */
export function decide(policy: AgentPolicy, facts: Facts, at: Date): { hold: boolean; policyAmount: bigint } {
  requireAllowedAccount(policy, facts.internalAccountId);
  const limits = policy.spendingLimits;
  const policyAmount = convert(facts.amount, facts.currency, limits.currency, at);
  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === facts.internalAccountId);
  // A per-account limit is in the account's currency; the policy's in the policy currency.
  const [limit, compared, currency] =
    rule?.perTransactionLimit !== undefined && rule.perTransactionLimit !== null
      ? [rule.perTransactionLimit, facts.amount, facts.currency]
      : [limits.perTransactionLimit, policyAmount, limits.currency];
  if (compared > limit)
    throw forbidden(`${compared} ${currency} exceeds the agent's per-transaction limit of ${limit} ${currency}`, {
      reason: 'PER_TRANSACTION_LIMIT_EXCEEDED',
      limit,
      currency,
    });
  const mode = rule?.executionMode ?? policy.defaultExecutionMode;
  const threshold = policy.approvalThresholds;
  const above =
    threshold?.amount !== undefined &&
    threshold.amount !== null &&
    convert(facts.amount, facts.currency, threshold.currency ?? limits.currency, at) > threshold.amount;
  return { hold: mode === 'APPROVAL_REQUIRED' || above, policyAmount };
}

// Stored form: JSON numbers lose precision past 2^53, so amounts are kept as decimal strings.
type Stored = Record<string, unknown>;
const AMOUNT_KEYS = ['perTransactionLimit', 'dailyLimit', 'monthlyLimit', 'amount'];

function mapAmounts(v: unknown, f: (x: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => mapAmounts(x, f));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v as Stored).map(([k, x]) => [k, AMOUNT_KEYS.includes(k) ? f(x) : mapAmounts(x, f)]),
  );
}

export const policyToJson = (p: AgentPolicy) =>
  mapAmounts(p, (x) => (typeof x === 'bigint' ? x.toString() : x)) as Stored;

export const policyFromJson = (j: unknown) =>
  mapAmounts(j, (x) => (typeof x === 'string' ? BigInt(x) : x)) as AgentPolicy;

/** A partial update (PATCH /agents/{id}/policy): given fields replace, omitted ones stay. */
export function mergePolicy(current: AgentPolicy, u: AgentPolicyUpdate, at: Date): AgentPolicy {
  let limits = current.spendingLimits;
  if (u.spendingLimits) {
    const { currency, ...rest } = u.spendingLimits;
    // A new currency recasts the existing amounts into it (reference: AgentSpendingLimitsUpdate).
    if (currency && currency !== limits.currency) {
      const recast = (x: bigint | null | undefined) =>
        x === null || x === undefined ? x : convert(x, limits.currency, currency, at);
      limits = {
        ...limits,
        currency,
        perTransactionLimit: recast(limits.perTransactionLimit)!,
        dailyLimit: recast(limits.dailyLimit),
        monthlyLimit: recast(limits.monthlyLimit),
      };
    }
    limits = { ...limits, ...rest };
  }
  const merged: AgentPolicy = {
    permissions: u.permissions ?? current.permissions,
    defaultExecutionMode: u.defaultExecutionMode ?? current.defaultExecutionMode,
    spendingLimits: limits,
    accountRestrictions: u.accountRestrictions ?? current.accountRestrictions,
    approvalThresholds: u.approvalThresholds ?? current.approvalThresholds,
  };
  return checkPolicy(merged);
}

/** Rules a policy must keep: currencies that can be converted, known permissions once each. */
export function checkPolicy(p: AgentPolicy): AgentPolicy {
  if (!isRateCurrency(p.spendingLimits.currency))
    throw fieldError('policy.spendingLimits.currency', `${p.spendingLimits.currency} is not a supported currency`);
  const t = p.approvalThresholds?.currency;
  if (t && !isRateCurrency(t))
    throw fieldError('policy.approvalThresholds.currency', `${t} is not a supported currency`);
  return { ...p, permissions: [...new Set(p.permissions)] };
}

export type HoldReason =
  | { rule: 'APPROVAL_REQUIRED'; scope: 'POLICY' | 'ACCOUNT_RULE' }
  | { rule: 'APPROVAL_THRESHOLD'; amount: bigint; threshold: bigint; over: bigint; currency: string };

/**
 * Why `decide` holds an action for the platform, as the staff deciding on it reads it: the
 * execution mode that requires approval (the policy's default or the account's rule) and the
 * approval threshold the amount passes, with by how much (in the threshold's currency). Read
 * against the policy as it is now; an empty list means the current policy would not hold it.
 */
export function holdReasons(policy: AgentPolicy, facts: Facts, at: Date): HoldReason[] {
  const out: HoldReason[] = [];
  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === facts.internalAccountId);
  if (rule?.executionMode === 'APPROVAL_REQUIRED') out.push({ rule: 'APPROVAL_REQUIRED', scope: 'ACCOUNT_RULE' });
  else if (!rule?.executionMode && policy.defaultExecutionMode === 'APPROVAL_REQUIRED')
    out.push({ rule: 'APPROVAL_REQUIRED', scope: 'POLICY' });
  const t = policy.approvalThresholds;
  if (t?.amount !== undefined && t.amount !== null) {
    const currency = t.currency ?? policy.spendingLimits.currency;
    const amount = convert(facts.amount, facts.currency, currency, at);
    if (amount > t.amount)
      out.push({ rule: 'APPROVAL_THRESHOLD', amount, threshold: t.amount, over: amount - t.amount, currency });
  }
  return out;
}
