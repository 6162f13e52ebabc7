'use client';
import { decimalsOf } from '@/lib/core/amount-input';

// An amount typed as people write it ("1,000.00"), with its currency beside it; the form reads it
// with parseMajorAmount (lib/core/amount-input.ts) and sends minor units.
export function AmountField({
  id,
  name,
  label,
  currency,
  value,
  error,
  hint,
}: {
  id: string;
  name: string;
  label: string;
  currency: string;
  value: string;
  error?: string;
  hint?: string;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const decimals = decimalsOf(currency);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label} ({currency})
      </label>
      <div className="mt-1 flex items-stretch">
        <input
          id={id}
          name={name}
          defaultValue={value}
          inputMode={decimals ? 'decimal' : 'numeric'}
          autoComplete="off"
          placeholder={decimals ? `0.${'0'.repeat(decimals)}` : '0'}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
          className="w-full min-w-0 rounded-l border border-slate-400 px-2 py-1.5 text-right tabular-nums"
        />
        <span
          aria-hidden="true"
          className="rounded-r border border-l-0 border-slate-400 bg-slate-100 px-2 py-1.5 text-sm text-slate-800"
        >
          {currency}
        </span>
      </div>
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
