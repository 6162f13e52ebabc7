'use client';
import { useSyncExternalStore } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import Link from 'next/link';
import type { ApprovalRow, ExpiredRow } from '@/app/console/_lib/approvals';
import { shortId } from '../format';
import { LocalTime } from '../time';
import { ReasonField } from './reason-field';

// The facts beside a held agent action (the money with its rate, why it was held, the agent's
// recent actions, the quote's time left) and the approval's confirmation naming the amount.
export function Money({ row }: { row: ApprovalRow }) {
  if (!row.sending) return <p className="mt-1 text-sm break-all text-slate-800">{row.detail}</p>;
  return (
    <p className="mt-1 text-sm text-slate-800">
      Sends <strong>{row.sending}</strong>
      {row.rate ? (
        <>
          {' '}
          · recipient gets <strong>{row.receiving}</strong> at {row.rate}
        </>
      ) : null}
    </p>
  );
}

export function HeldBecause({ row }: { row: ApprovalRow }) {
  return (
    <div className="mt-2 rounded bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p className="font-medium">Held because</p>
      <ul className="list-disc pl-5">
        {row.held.map((h) => (
          <li key={h}>{h}</li>
        ))}
      </ul>
    </div>
  );
}

export function RecentActions({ row }: { row: ApprovalRow }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-blue-800">
        {row.agent.name}&apos;s recent actions ({row.recent.length})
      </summary>
      {row.recent.length ? (
        <ul className="mt-1 space-y-1">
          {row.recent.map((r) => (
            <li key={r.id} className="flex flex-wrap gap-x-2">
              <span>{r.amount}</span>
              <span className="text-slate-700">{r.type}</span>
              <span className="font-medium">{r.status}</span>
              <span className="text-slate-700">
                <LocalTime value={r.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-slate-700">This is the agent&apos;s first action.</p>
      )}
    </details>
  );
}

/** The agent's usage against its limits, beside the action that would add to it. */
export function LimitsTable({ limits }: { limits: ApprovalRow['limits'] }) {
  return (
    <table className="mt-3 w-full max-w-xl text-left text-sm">
      <caption className="sr-only">Usage against the agent&apos;s limits</caption>
      <thead>
        <tr className="border-b border-slate-200">
          <th scope="col" className="py-1 pr-3 font-medium">
            Limit
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            Used
          </th>
          <th scope="col" className="py-1 font-medium">
            Of
          </th>
        </tr>
      </thead>
      <tbody>
        {limits.map((l) => (
          <tr key={l.label}>
            <th scope="row" className="py-1 pr-3 font-normal">
              {l.label}
            </th>
            <td className="py-1 pr-3">{l.used}</td>
            <td className="py-1">{l.limit}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The reader's clock to the second, for the quote's countdown: null on the server and in the first
 * render (the server's clock is not the reader's), then ticking each second.
 */
const tick = (onChange: () => void) => {
  const timer = setInterval(onChange, 1000);
  return () => clearInterval(timer);
};
const second = () => Math.floor(Date.now() / 1000) * 1000;
/** `skew`: how far the platform's clock runs ahead of the reader's (the sandbox clock can be advanced). */
export function useNow(skew = 0): number | null {
  const t = useSyncExternalStore(tick, second, () => null);
  return t === null ? null : t + skew;
}

function leftText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function TimeLeft({ until, skew }: { until: string; skew: number }) {
  const t = useNow(skew);
  if (t === null)
    return (
      <span>
        quote expires <LocalTime value={until} />
      </span>
    );
  const ms = Date.parse(until) - t;
  return ms > 0 ? (
    <span className={ms < 30_000 ? 'font-medium text-red-800' : ''}>{leftText(ms)} left before the quote expires</span>
  ) : (
    <span className="font-medium text-red-800">quote expired</span>
  );
}

export function ConfirmApprove({
  row,
  what,
  expired,
  busy,
  approve,
  onCancel,
}: {
  row: ApprovalRow;
  what: string;
  expired: boolean;
  busy: boolean;
  approve: UseMutationResult<unknown, Error, void>;
  onCancel: () => void;
}) {
  return (
    <div
      className="mt-3 max-w-xl rounded border border-emerald-700 p-3 text-sm"
      role="group"
      aria-label="Confirm approval"
    >
      {expired ? (
        <p className="text-red-800">
          The quote behind this action has expired. As the API documents, an expired quote&apos;s action cannot run:
          approving it now would only mark it FAILED. Reject it, or ask the agent to request a new quote.
        </p>
      ) : (
        <>
          <p>
            Approve and send <strong>{what}</strong>
            {row.rate ? (
              <>
                {' '}
                (recipient gets <strong>{row.receiving}</strong> at {row.rate})
              </>
            ) : null}
            ? The money moves at once.
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() => approve.mutate()}
              disabled={busy}
              className="rounded bg-emerald-700 px-3 py-1.5 font-medium text-white hover:bg-emerald-800 disabled:opacity-60"
            >
              {approve.isPending ? 'Approving…' : `Approve ${row.sending ?? row.amount}`}
            </button>
            <button
              type="button"
              onClick={onCancel}
              disabled={busy}
              className="rounded border border-slate-400 px-3 py-1.5 font-medium"
            >
              Cancel
            </button>
          </div>
        </>
      )}
    </div>
  );
}

export function RejectForm({
  id,
  reason,
  setReason,
  busy,
  pending,
  label,
  onReject,
}: {
  id: string;
  reason: string;
  setReason: (reason: string) => void;
  busy: boolean;
  pending: boolean;
  label: string;
  onReject: () => void;
}) {
  return (
    <form
      className="mt-3 max-w-xl text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        onReject();
      }}
    >
      <ReasonField
        id={id}
        label="Reason for rejecting (kept on the action)"
        value={reason}
        onChange={setReason}
        rows={3}
      />
      <button
        type="submit"
        disabled={busy || !reason.trim()}
        className="mt-2 rounded bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-60"
      >
        {pending ? 'Rejecting…' : label}
      </button>
    </form>
  );
}

/** What died waiting: actions failed because their quote expired before anyone decided. */
export function ExpiredList({ rows }: { rows: ExpiredRow[] }) {
  if (!rows.length) return null;
  return (
    <div className="mt-6" data-testid="expired-actions">
      <h3 className="font-medium">Expired before a decision (last 24 hours)</h3>
      <ul className="mt-2 space-y-2 text-sm">
        {rows.map((r) => (
          <li key={r.id} data-expired-id={r.id} className="rounded border border-red-200 bg-red-50 p-3 text-red-950">
            <p className="break-words">
              <strong>{r.amount}</strong> · {r.agent}: its quote expired before anyone approved it, so the action failed
              and nothing moved.
            </p>
            <p className="mt-1 text-slate-800">
              Failed <LocalTime value={r.failedAt} />
              {r.transactionId ? (
                <>
                  {' · '}
                  <Link
                    className="font-mono text-xs text-blue-800 underline"
                    href={`/console/transactions/${encodeURIComponent(r.transactionId)}`}
                  >
                    {shortId(r.transactionId)}
                  </Link>
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
