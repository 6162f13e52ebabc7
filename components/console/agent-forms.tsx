'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import {
  changeAgentPolicyAction,
  regenerateDeviceCodeAction,
  type PolicyForm as PolicyFields,
} from '@/app/console/_lib/actions';
import type { ActionResult } from '@/app/console/_lib/session';
import { currencyInfo } from '@/lib/core/currencies';
import { formatAmount } from '../format';
import { LocalTime } from '../time';

// An agent's policy form (admins) and its device-code button (operators): server actions run
// through react-query, then the server-rendered page refreshes. A refused policy shows the API's
// validation message on each field it names; a new device code is shown once, here only.
class Refused extends Error {
  constructor(readonly result: Extract<ActionResult<unknown>, { ok: false }>) {
    super(result.error);
  }
}

const input = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5';
const primary = 'rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60';

type Name = keyof PolicyFields;

function Field({
  name,
  label,
  value,
  error,
  hint,
}: {
  name: Name;
  label: string;
  value: string;
  error?: string;
  hint?: string;
}) {
  const id = `policy-${name}`;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        defaultValue={value}
        inputMode="numeric"
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        className={input}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-700">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const NAMES: Name[] = [
  'defaultExecutionMode',
  'perTransactionLimit',
  'dailyLimit',
  'monthlyLimit',
  'dailyTransactionLimit',
];

/**
 * The policy change as a mutation sending the fields that differ from the policy in force, and the
 * API's validation messages by form field.
 */
function usePolicyChange(agentId: string, current: Required<PolicyFields>) {
  const router = useRouter();
  const [unchanged, setUnchanged] = useState(false);
  const m = useMutation({
    mutationFn: async (form: PolicyFields) => {
      const r = await changeAgentPolicyAction(agentId, form);
      if (!r.ok) throw new Refused(r);
      return r.value;
    },
    onSuccess: () => router.refresh(),
  });
  const fieldErrors: Partial<Record<Name, string>> = {};
  const refused = m.error instanceof Refused ? m.error.result : null;
  // The API names a field by its path in the body (spendingLimits.dailyLimit); the form by its last part.
  for (const f of refused?.fields ?? []) fieldErrors[f.field.split('.').pop() as Name] ??= f.message;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const get = (k: Name) => String(f.get(k) ?? '').trim();
    const change = Object.fromEntries(NAMES.filter((k) => get(k) !== current[k]).map((k) => [k, get(k)]));
    setUnchanged(!Object.keys(change).length);
    if (Object.keys(change).length) m.mutate(change);
    else m.reset();
  };
  return { m, fieldErrors, submit, unchanged };
}

function ModeSelect({ value }: { value: string }) {
  return (
    <div>
      <label htmlFor="policy-defaultExecutionMode" className="block text-sm font-medium">
        Default execution mode
      </label>
      <select id="policy-defaultExecutionMode" name="defaultExecutionMode" defaultValue={value} className={input}>
        <option value="AUTO">AUTO (runs within the limits)</option>
        <option value="APPROVAL_REQUIRED">APPROVAL_REQUIRED (actions wait for approval)</option>
      </select>
    </div>
  );
}

export function PolicyForm({
  agentId,
  currency,
  current,
}: {
  agentId: string;
  currency: string;
  current: Required<PolicyFields>;
}) {
  const { m, fieldErrors, submit, unchanged } = usePolicyChange(agentId, current);
  const one = 10n ** BigInt(currencyInfo(currency)?.decimals ?? 2);
  const unit = `in minor units of ${currency} (${one} = ${formatAmount(one, currency)})`;
  return (
    <form onSubmit={submit} className="grid grid-cols-1 gap-3 sm:grid-cols-2" noValidate>
      <ModeSelect value={current.defaultExecutionMode} />
      <Field
        name="perTransactionLimit"
        label={`Limit per transaction, ${unit}`}
        value={current.perTransactionLimit}
        error={fieldErrors.perTransactionLimit}
      />
      <Field
        name="dailyLimit"
        label={`Daily limit, ${unit}`}
        hint="Empty: no daily limit."
        value={current.dailyLimit}
        error={fieldErrors.dailyLimit}
      />
      <Field
        name="monthlyLimit"
        label={`Monthly limit, ${unit}`}
        hint="Empty: no monthly limit."
        value={current.monthlyLimit}
        error={fieldErrors.monthlyLimit}
      />
      <Field
        name="dailyTransactionLimit"
        label="Transactions per day (a whole number)"
        hint="Empty: left as it is."
        value={current.dailyTransactionLimit}
        error={fieldErrors.dailyTransactionLimit}
      />
      <div className="sm:col-span-2">
        <button type="submit" disabled={m.isPending} className={primary}>
          {m.isPending ? 'Saving…' : 'Save the policy'}
        </button>
        {m.error ? (
          <p role="alert" className="mt-2 text-sm break-words text-red-800">
            {m.error.message}
          </p>
        ) : null}
        {unchanged ? (
          <p role="status" className="mt-2 text-sm text-slate-700">
            Nothing to save: these are the values in force.
          </p>
        ) : null}
        {m.isSuccess ? (
          <p role="status" className="mt-2 text-sm text-emerald-800">
            Policy saved; it is in force now.
          </p>
        ) : null}
      </div>
    </form>
  );
}

export function DeviceCodeButton({ agentId }: { agentId: string }) {
  const router = useRouter();
  const [issued, setIssued] = useState<{ code: string; expiresAt: string } | null>(null);
  const m = useMutation({
    mutationFn: async () => {
      const r = await regenerateDeviceCodeAction(agentId);
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    onSuccess: (v) => {
      setIssued(v);
      router.refresh();
    },
  });
  return (
    <div>
      <button type="button" disabled={m.isPending} onClick={() => m.mutate()} className={primary}>
        {m.isPending ? 'Generating…' : 'Generate a new device code'}
      </button>
      {m.error ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {m.error.message}
        </p>
      ) : null}
      {issued ? (
        <div
          role="status"
          className="mt-3 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950"
        >
          <p className="font-medium">New device code, shown only now — hand it to the agent software:</p>
          <p className="mt-1 font-mono text-base break-all" data-testid="device-code">
            {issued.code}
          </p>
          <p className="mt-1">
            Valid until <LocalTime value={issued.expiresAt} />; earlier codes no longer work.
          </p>
        </div>
      ) : null}
    </div>
  );
}
