'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { changeAgentPolicyAction, type PolicyForm as PolicyChange } from '@/app/console/_lib/actions';
import type { ActionResult } from '@/app/console/_lib/session';
import { formatMajorInput } from '@/lib/core/amount-input';
import { AmountField } from './amount-field';
import { Accounts, CountField, CurrencySelect, ModeSelect, Permissions, SaveRow, Warnings } from './policy-fields';
import { AMOUNTS, readForm, warningsOf, type Errors, type PolicyUsage, type PolicyValues } from './policy-form-read';

export type { PolicyValues } from './policy-form-read';

// An agent's whole policy as one form (admins): mode, limits, approval threshold, permissions and
// the accounts it may use. Amounts are typed in major units of their currency and sent in minor
// units; only the fields that differ from the policy in force are sent, so the audit entry says
// what changed. Limits that contradict each other or today's usage are shown first and saved only
// on a second, explicit click. A refusal shows the API's message on the field it names.

class Refused extends Error {
  constructor(readonly result: Extract<ActionResult<unknown>, { ok: false }>) {
    super(result.error);
  }
}

function usePolicyChange(agentId: string) {
  const router = useRouter();
  return useMutation({
    mutationFn: async (change: PolicyChange) => {
      const r = await changeAgentPolicyAction(agentId, change);
      if (!r.ok) throw new Refused(r);
      return r.value;
    },
    onSuccess: () => router.refresh(),
  });
}

export function PolicyForm({
  agentId,
  current,
  usage,
  accounts,
  currencies,
}: {
  agentId: string;
  current: PolicyValues;
  usage: PolicyUsage;
  accounts: { id: string; label: string }[];
  currencies: string[];
}) {
  const m = usePolicyChange(agentId);
  const [errors, setErrors] = useState<Errors>({});
  const [held, setHeld] = useState<{ change: PolicyChange; warnings: string[] } | null>(null);
  const [unchanged, setUnchanged] = useState(false);
  const [thresholdCurrency, setThresholdCurrency] = useState(current.approvalThresholdCurrency);
  const refused = m.error instanceof Refused ? m.error.result : null;
  const shown: Errors = { ...errors };
  // The API names a field by its path (spendingLimits.dailyLimit, approvalThresholds.amount).
  for (const f of refused?.fields ?? []) {
    const last = f.field.split('.').pop() ?? '';
    shown[last === 'amount' ? 'approvalThreshold' : last] ??= f.message;
  }
  const major = (k: (typeof AMOUNTS)[number], c: string) => (current[k] ? formatMajorInput(BigInt(current[k]), c) : '');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const r = readForm(new FormData(e.currentTarget), current, thresholdCurrency);
    setErrors(r.errors);
    setHeld(null);
    m.reset();
    if (Object.keys(r.errors).length) return;
    setUnchanged(!Object.keys(r.change).length);
    if (!Object.keys(r.change).length) return;
    const warnings = warningsOf(r, current, usage);
    if (warnings.length) setHeld({ change: r.change, warnings });
    else m.mutate(r.change);
  };
  const amount = (k: (typeof AMOUNTS)[number], label: string, hint?: string, currency = current.currency) => (
    <AmountField
      id={`policy-${k}`}
      name={k}
      label={label}
      currency={currency}
      value={major(k, currency)}
      hint={hint}
      error={shown[k]}
    />
  );
  return (
    <form onSubmit={submit} className="grid grid-cols-1 gap-3 sm:grid-cols-2" noValidate aria-label="Agent policy">
      <ModeSelect value={current.defaultExecutionMode} />
      {amount('perTransactionLimit', 'Limit per transaction')}
      {amount('dailyLimit', 'Daily limit', 'Empty: no daily limit.')}
      {amount('monthlyLimit', 'Monthly limit', 'Empty: no monthly limit.')}
      <CountField value={current.dailyTransactionLimit} error={shown.dailyTransactionLimit} />
      <div className="grid grid-cols-[1fr_auto] items-start gap-2">
        {amount(
          'approvalThreshold',
          'Approval needed above',
          'Empty: no threshold (the execution mode decides).',
          thresholdCurrency,
        )}
        <CurrencySelect value={thresholdCurrency} onChange={setThresholdCurrency} currencies={currencies} />
      </div>
      <Permissions current={current.permissions} error={shown.permissions} />
      <Accounts current={current.allowedAccountIds} accounts={accounts} error={shown.allowedAccountIds} />
      {held ? (
        <Warnings
          items={held.warnings}
          pending={m.isPending}
          onConfirm={() => m.mutate(held.change, { onSuccess: () => setHeld(null) })}
        />
      ) : null}
      <SaveRow pending={m.isPending} error={m.error?.message} unchanged={unchanged} saved={m.isSuccess} />
    </form>
  );
}
