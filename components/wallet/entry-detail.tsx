'use client';
import { LocalTime } from '../time';
import type { Json } from './api';
import { money, quoteFigures } from './figures';
import { Rate } from './review';

const STEP: Record<string, string> = {
  PENDING: 'Created',
  PENDING_AUTHORIZATION: 'Waiting for authorization',
  PROCESSING: 'Sent on its way',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  EXPIRED: 'Expired',
  REFUND_PENDING: 'Refund started',
  REFUND_COMPLETED: 'Refunded',
  REFUND_FAILED: 'Refund failed',
  AUTHORIZED: 'Authorized',
  PARTIALLY_SETTLED: 'Partly settled',
  SETTLED: 'Settled',
  REFUNDED: 'Refunded',
  EXCEPTION: 'Exception',
};

const stepName = (event: string) => STEP[event.split('.').pop() ?? ''] ?? event;

// One history entry in full: who, how much left and arrived, the rate and the fees of the quote
// it was executed from, the reference, and each step it went through.
export function EntryDetail({ detail }: { detail: Json }) {
  const { entry, transaction: t, quote, timeline } = detail;
  const f = quote ? quoteFigures(quote) : null;
  const reference = t.reconciliationInstructions?.reference ?? t.issuerTransactionToken ?? null;
  return (
    <div className="mt-2 rounded border border-slate-200 bg-slate-50 p-3">
      <dl
        aria-label="Payment detail"
        className="grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm"
      >
        <dt className="text-slate-700">{BigInt(entry.amount) < 0n ? 'To' : 'From'}</dt>
        <dd className="break-words">{entry.counterparty}</dd>
        <dt className="text-slate-700">Amount</dt>
        <dd>{money(entry.amount, entry.currency)}</dd>
        {t.type === 'OUTGOING' && t.receivedAmount ? (
          <>
            <dt className="text-slate-700">They receive</dt>
            <dd>{money(t.receivedAmount.amount, t.receivedAmount.currency.code)}</dd>
          </>
        ) : null}
        {f?.rate ? (
          <>
            <dt className="text-slate-700">Rate</dt>
            <dd>
              <Rate forward={f.rate.forward} inverse={f.rate.inverse} />
            </dd>
            <dt className="text-slate-700">Fees</dt>
            <dd>{f.totalFees}</dd>
          </>
        ) : null}
        {BigInt(entry.refunded ?? 0) > 0n ? (
          <>
            <dt className="text-slate-700">Refunded</dt>
            <dd>{money(entry.refunded, entry.currency)}</dd>
          </>
        ) : null}
        {t.refund ? (
          <>
            <dt className="text-slate-700">Refund</dt>
            <dd className="break-words">
              {String(t.refund.status).toLowerCase()} · reference{' '}
              <span className="font-mono">{t.refund.reference}</span>
            </dd>
          </>
        ) : null}
        {entry.failureReason ? (
          <>
            <dt className="text-slate-700">Why it failed</dt>
            <dd>{String(entry.failureReason).toLowerCase().replace(/_/g, ' ')}</dd>
          </>
        ) : null}
        {reference ? (
          <>
            <dt className="text-slate-700">Reference</dt>
            <dd className="font-mono break-all">{reference}</dd>
          </>
        ) : null}
        <dt className="text-slate-700">Id</dt>
        <dd className="font-mono text-xs break-all">{t.id}</dd>
      </dl>
      {timeline.length ? (
        <ol aria-label="Timeline" className="mt-2 space-y-1 border-l border-slate-300 pl-3 text-sm">
          {timeline.map((s: Json, i: number) => (
            <li key={i}>
              <span className="font-medium">{stepName(s.event)}</span>{' '}
              <span className="text-slate-700">
                <LocalTime value={s.at} />
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
