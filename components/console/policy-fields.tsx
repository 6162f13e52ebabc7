'use client';
import { useState } from 'react';

// Parts of the agent policy form (./policy-form.tsx): permissions, the accounts the agent may use,
// and the warnings shown before limits that contradict each other are saved.
const PERMISSIONS: [string, string][] = [
  ['VIEW_TRANSACTIONS', 'See transactions'],
  ['CREATE_QUOTES', 'Create quotes'],
  ['EXECUTE_QUOTES', 'Execute quotes (pay)'],
  ['CREATE_TRANSFERS', 'Transfer between accounts'],
  ['MANAGE_EXTERNAL_ACCOUNTS', 'Manage payees (external accounts)'],
];
const input = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5';
const primary = 'rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60';

export function Permissions({ current, error }: { current: string[]; error?: string }) {
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium">Permissions</legend>
      <div className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
        {PERMISSIONS.map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="permissions" value={value} defaultChecked={current.includes(value)} />
            {label} <span className="font-mono text-xs text-slate-700">{value}</span>
          </label>
        ))}
      </div>
      {error ? <p className="mt-1 text-sm text-red-800">{error}</p> : null}
    </fieldset>
  );
}

export function Accounts({
  current,
  accounts,
  error,
}: {
  current: string[] | null;
  accounts: { id: string; label: string }[];
  error?: string;
}) {
  const [only, setOnly] = useState(current !== null);
  return (
    <fieldset className="sm:col-span-2" aria-describedby={error ? 'policy-accounts-error' : undefined}>
      <legend className="text-sm font-medium">Accounts the agent may use</legend>
      <label className="mt-1 flex items-center gap-2 text-sm">
        <input type="radio" name="accounts" value="any" checked={!only} onChange={() => setOnly(false)} />
        Any account of the customer
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="accounts" value="only" checked={only} onChange={() => setOnly(true)} />
        Only these accounts
      </label>
      <div className="mt-1 ml-6 space-y-1">
        {accounts.map((a) => (
          <label key={a.id} className="flex items-center gap-2 text-sm break-words">
            <input
              type="checkbox"
              name="allowedAccountIds"
              value={a.id}
              disabled={!only}
              defaultChecked={current?.includes(a.id) ?? false}
            />
            {a.label}
          </label>
        ))}
        {!accounts.length ? <p className="text-sm text-slate-700">The customer has no internal account.</p> : null}
      </div>
      {error ? (
        <p id="policy-accounts-error" className="mt-1 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function Warnings({ items, onConfirm, pending }: { items: string[]; onConfirm: () => void; pending: boolean }) {
  return (
    <div role="alert" className="rounded border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 sm:col-span-2">
      <p className="font-medium">Check these limits before saving:</p>
      <ul className="mt-1 list-disc pl-5">
        {items.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      <button type="button" onClick={onConfirm} disabled={pending} className={`${primary} mt-2`}>
        Save anyway
      </button>
    </div>
  );
}

export function ModeSelect({ value }: { value: string }) {
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

export function CountField({ value, error }: { value: string; error?: string }) {
  return (
    <div>
      <label htmlFor="policy-dailyTransactionLimit" className="block text-sm font-medium">
        Transactions per day
      </label>
      <input
        id="policy-dailyTransactionLimit"
        name="dailyTransactionLimit"
        defaultValue={value}
        inputMode="numeric"
        aria-invalid={error ? true : undefined}
        aria-describedby="policy-dailyTransactionLimit-hint"
        className={input}
      />
      <p id="policy-dailyTransactionLimit-hint" className="mt-1 text-xs text-slate-700">
        A whole number. Empty: left as it is.
      </p>
      {error ? <p className="mt-1 text-sm text-red-800">{error}</p> : null}
    </div>
  );
}

export function CurrencySelect({
  value,
  onChange,
  currencies,
}: {
  value: string;
  onChange: (c: string) => void;
  currencies: string[];
}) {
  return (
    <div>
      <label htmlFor="policy-approvalThresholdCurrency" className="block text-sm font-medium">
        Currency
      </label>
      <select
        id="policy-approvalThresholdCurrency"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={input}
      >
        {currencies.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </select>
    </div>
  );
}

export function SaveRow({
  pending,
  error,
  unchanged,
  saved,
}: {
  pending: boolean;
  error?: string;
  unchanged: boolean;
  saved: boolean;
}) {
  return (
    <div className="sm:col-span-2">
      <button type="submit" disabled={pending} className={primary}>
        {pending ? 'Saving…' : 'Save the policy'}
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-sm break-words text-red-800">
          {error}
        </p>
      ) : null}
      {unchanged ? (
        <p role="status" className="mt-2 text-sm text-slate-700">
          Nothing to save: these are the values in force.
        </p>
      ) : null}
      {saved ? (
        <p role="status" className="mt-2 text-sm text-emerald-800">
          Policy saved; it is in force now.
        </p>
      ) : null}
    </div>
  );
}
