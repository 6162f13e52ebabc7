'use client';
import { useQuery } from '@tanstack/react-query';
import { formatAmount } from '../format';
import { call, type Json } from './api';
import { Problem } from './ui';

const STATE_STYLE: Record<string, string> = {
  ACTIVE: 'bg-emerald-100 text-emerald-900',
  FROZEN: 'bg-sky-100 text-sky-900',
  PROCESSING: 'bg-amber-100 text-amber-900',
  CLOSED: 'bg-slate-200 text-slate-800',
};

// The customer's cards as the platform issued them. Freezing and closing are the platform's
// (its app or the console): the wallet shows where each card stands.
export function Cards() {
  const q = useQuery({ queryKey: ['cards'], queryFn: async () => (await call('GET', '/cards')).data as Json });
  if (q.isPending) return <p className="text-sm text-slate-700">Loading…</p>;
  if (q.isError) return <Problem error={q.error} />;
  const rows = q.data.data as Json[];
  if (!rows.length) return <p className="text-sm text-slate-700">No cards yet.</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {rows.map((c: Json) => (
        <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
          <span>
            <span className="font-medium">
              {c.brand === 'MASTERCARD' ? 'Mastercard' : 'Visa'} •••• {c.last4}
            </span>
            <span className="block text-slate-700">
              {c.form === 'VIRTUAL' ? 'Virtual' : 'Physical'} · {c.currency} · expires{' '}
              {String(c.expMonth).padStart(2, '0')}/{String(c.expYear).slice(-2)}
            </span>
            {c.maxSpendPerTransaction != null ? (
              <span className="block text-slate-700">
                Up to {formatAmount(c.maxSpendPerTransaction, c.currency)} a purchase
              </span>
            ) : null}
          </span>
          <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATE_STYLE[c.state] ?? STATE_STYLE.CLOSED}`}>
            {String(c.state).charAt(0) + String(c.state).slice(1).toLowerCase()}
          </span>
        </li>
      ))}
    </ul>
  );
}
