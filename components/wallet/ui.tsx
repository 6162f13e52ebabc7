import type { ReactNode } from 'react';

// Form pieces of the wallet pages: every field has a visible label, every button a name.
export const inputClass = 'mt-1 w-full rounded border border-slate-400 px-3 py-2';
export const primaryClass =
  'rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60';
export const plainClass =
  'rounded border border-slate-400 bg-white px-4 py-2 font-medium hover:bg-slate-100 disabled:opacity-60';

export function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-2 rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}
