'use client';
import { useState } from 'react';
import { LocalTime } from '../time';
import type { Json } from './api';
import { quoteFigures } from './figures';
import { plainClass, primaryClass, Problem } from './ui';

// The screen where the holder confirms a payment: every figure comes from the quote the API
// answered (components/wallet/figures.ts), fees one by one, what arrives in the receiving
// currency, and the rate as people read it with its inverse a tap away.
export function Review({
  q,
  destination,
  note,
  sending,
  error,
  onConfirm,
  onChange,
}: {
  q: Json;
  destination: string;
  note: string;
  sending: boolean;
  error: Error | null;
  onConfirm: () => void;
  onChange: () => void;
}) {
  const f = quoteFigures(q);
  return (
    <div className="space-y-3">
      <h3 className="font-medium">Review the payment</h3>
      <dl
        aria-label="Payment review"
        className="grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm"
      >
        <Row label="To" value={destination} />
        <Row label="You send" value={f.send} strong />
        {f.fees.map((line) => (
          <Row key={line.label} label={line.label} value={line.text} />
        ))}
        <Row label="Total fees" value={f.totalFees} />
        <Row label="Converted" value={f.converted} />
        <dt className="text-slate-700">Rate</dt>
        <dd className="break-words">{f.rate ? <Rate forward={f.rate.forward} inverse={f.rate.inverse} /> : '—'}</dd>
        <Row label="They receive" value={f.receive} strong />
        {note ? <Row label="Note" value={note} /> : null}
        <dt className="text-slate-700">Quote valid until</dt>
        <dd>
          <LocalTime value={q.expiresAt} />
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={primaryClass} disabled={sending} onClick={onConfirm}>
          {sending ? 'Signing and sending…' : `Confirm and send ${f.send}`}
        </button>
        <button type="button" className={plainClass} onClick={onChange}>
          Change
        </button>
      </div>
      <Problem error={error} />
    </div>
  );
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <>
      <dt className="text-slate-700">{label}</dt>
      <dd className={`break-words ${strong ? 'font-semibold' : ''}`}>{value}</dd>
    </>
  );
}

/** The rate, turned around on tap ("1 USD = 17.059 MXN" ⇄ "1 MXN = 0.05862 USD"). */
export function Rate({ forward, inverse }: { forward: string; inverse: string }) {
  const [flipped, setFlipped] = useState(false);
  return (
    <button
      type="button"
      className="text-left underline decoration-dotted underline-offset-2"
      aria-label={`Rate ${flipped ? inverse : forward}; show the other way round`}
      onClick={() => setFlipped(!flipped)}
    >
      {flipped ? inverse : forward}
    </button>
  );
}
