'use client';
import { useState } from 'react';
import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { approveAgentActionAction, rejectAgentActionAction } from '@/app/console/_lib/actions';
import type { ApprovalPage, ApprovalRow } from '@/app/console/_lib/approvals';
import { shortId } from '../format';
import { LocalTime } from '../time';
import {
  ConfirmApprove,
  ExpiredList,
  HeldBecause,
  LimitsTable,
  RejectForm,
  Money,
  RecentActions,
  TimeLeft,
  useNow,
} from './approval-facts';
import { Empty } from '../ui';
import { LIVE_INTERVAL_MS } from './live';

// The approvals queue: the first page arrives rendered by the server; a decision runs as a server
// action (the API's approve or reject, audited), then react-query refetches the page so the
// decided action leaves the queue without a reload, and the navigation's live count refetches.
export function ApprovalQueue({
  initial,
  cursor,
  canDecide,
}: {
  initial: ApprovalPage;
  cursor?: string;
  canDecide: boolean;
}) {
  const key = ['approvals', cursor ?? ''];
  const [notice, setNotice] = useState<string | null>(null);
  const query = useQuery({
    queryKey: key,
    initialData: initial,
    queryFn: async (): Promise<ApprovalPage> => {
      const qs = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const res = await fetch(`/console/api/approvals${qs}`, { cache: 'no-store' });
      if (!res.ok) throw new Error(res.status === 401 ? 'Your session has ended; sign in again' : `HTTP ${res.status}`);
      return res.json();
    },
    // Live: a newly held action appears, and one failed by its quote's expiry leaves, within 5 s.
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const { rows } = query.data;
  // The quotes' time left counts on the platform's clock, as it stood when the page was read.
  const skew = Date.parse(query.data.now) - query.dataUpdatedAt;
  return (
    <div>
      <p className="mb-2 text-sm font-medium" data-testid="queue-count">
        {query.data.totalLabel} waiting
      </p>
      <p role="status" className="mb-3 min-h-5 text-sm text-emerald-800">
        {notice ?? ''}
      </p>
      {query.isError ? (
        <p role="alert" className="mb-3 text-sm text-red-800">
          Could not refresh the queue: {query.error.message}
        </p>
      ) : null}
      {rows.length ? (
        <ul className="space-y-4">
          {rows.map((r) => (
            <ApprovalCard key={r.id} row={r} skew={skew} canDecide={canDecide} queryKey={key} onDone={setNotice} />
          ))}
        </ul>
      ) : (
        <Empty>No agent action is waiting for approval.</Empty>
      )}
      <ExpiredList rows={query.data.expired} />
    </div>
  );
}

function ApprovalCard({
  row,
  skew,
  canDecide,
  queryKey,
  onDone,
}: {
  row: ApprovalRow;
  skew: number;
  canDecide: boolean;
  queryKey: string[];
  onDone: (notice: string) => void;
}) {
  return (
    <li
      className="rounded border border-slate-200 bg-white p-4"
      aria-labelledby={`title-${row.id}`}
      data-action-id={row.id}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`title-${row.id}`} className="font-medium">
          {row.amount} <span className="text-sm font-normal text-slate-700">· {row.type}</span>
        </h3>
        <span className="text-sm text-slate-700">
          held <LocalTime value={row.createdAt} />
          {row.expiresAt ? (
            <>
              {' · '}
              <TimeLeft until={row.expiresAt} skew={skew} />
            </>
          ) : null}
        </span>
      </div>
      <Money row={row} />
      <HeldBecause row={row} />
      <ApprovalFacts row={row} />
      <RecentActions row={row} />
      <LimitsTable limits={row.limits} />
      {canDecide ? <Decision row={row} skew={skew} queryKey={queryKey} onDone={onDone} /> : null}
    </li>
  );
}

function ApprovalFacts({ row }: { row: ApprovalRow }) {
  return (
    <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
      <div>
        <dt className="inline font-medium">Agent: </dt>
        <dd className="inline">
          {row.agent.name} <span className="font-mono text-xs">{shortId(row.agent.id)}</span>
          {row.agent.isPaused ? ' (paused)' : ''}
        </dd>
      </div>
      <div>
        <dt className="inline font-medium">Customer: </dt>
        <dd className="inline">
          <Link className="text-blue-800 underline" href={`/console/customers/${encodeURIComponent(row.customerId)}`}>
            {row.customer.name}
          </Link>{' '}
          · {row.customer.kind === 'BUSINESS' ? 'KYB' : 'KYC'} {row.customer.verification}
        </dd>
      </div>
      {row.source ? (
        <div>
          <dt className="inline font-medium">From: </dt>
          <dd className="inline">{row.source.name}</dd>
        </div>
      ) : null}
      {row.payee ? (
        <div>
          <dt className="inline font-medium">{row.type === 'TRANSFER_IN' ? 'Into: ' : 'Payee: '}</dt>
          <dd className="inline break-words">
            {row.payee.name}
            {row.payee.umaAddress && row.payee.umaAddress !== row.payee.name ? ` (${row.payee.umaAddress})` : ''}
            {[row.payee.bank, row.payee.network, row.payee.country].filter(Boolean).length
              ? ` · ${[row.payee.bank, row.payee.network, row.payee.country].filter(Boolean).join(' · ')}`
              : ''}
          </dd>
        </div>
      ) : null}
      <div>
        <dt className="inline font-medium">Policy: </dt>
        <dd className="inline">default mode {row.mode}</dd>
      </div>
      {row.transactionId ? (
        <div>
          <dt className="inline font-medium">Transaction: </dt>
          <dd className="inline">
            <Link
              className="font-mono text-xs text-blue-800 underline"
              href={`/console/transactions/${encodeURIComponent(row.transactionId)}`}
            >
              {shortId(row.transactionId)}
            </Link>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** Approve and reject (with a reason) as server actions; either settles the queue. */
function useDecision(row: ApprovalRow, queryKey: string[], onDone: (notice: string) => void) {
  const client = useQueryClient();
  const router = useRouter();
  const [reason, setReason] = useState('');
  const settle = async (notice: string) => {
    onDone(notice);
    // The queue and the navigation's badge (the frame's live query) follow at once.
    await Promise.all([
      client.invalidateQueries({ queryKey }),
      client.invalidateQueries({ queryKey: ['console-live'] }),
    ]);
    router.refresh();
  };
  const approve = useMutation({
    mutationFn: async () => {
      // One key per click: a request the network repeats pays once and answers alike.
      const r = await approveAgentActionAction(row.id, crypto.randomUUID());
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    onSuccess: (v) =>
      settle(
        v.status === 'APPROVED'
          ? `Approved ${shortId(row.id)}: ${row.amount} is on its way.`
          : `Approved ${shortId(row.id)}, but it could not run: ${v.failureReason ?? v.status}.`,
      ),
  });
  const reject = useMutation({
    mutationFn: async () => {
      const r = await rejectAgentActionAction(row.id, reason);
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    onSuccess: () => settle(`Rejected ${shortId(row.id)}; nothing moved.`),
  });
  return { approve, reject, reason, setReason };
}

function Decision({
  row,
  skew,
  queryKey,
  onDone,
}: {
  row: ApprovalRow;
  skew: number;
  queryKey: string[];
  onDone: (notice: string) => void;
}) {
  const { approve, reject, reason, setReason } = useDecision(row, queryKey, onDone);
  const [step, setStep] = useState<'none' | 'approve' | 'reject'>('none');
  const t = useNow(skew);
  const expired = row.expiresAt !== null && t !== null && Date.parse(row.expiresAt) <= t;
  const busy = approve.isPending || reject.isPending;
  const error = approve.error ?? reject.error;
  const what = `${row.sending ?? row.amount}${row.payee ? ` to ${row.payee.name}` : ''}`;
  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => setStep((s) => (s === 'approve' ? 'none' : 'approve'))}
          disabled={busy}
          aria-expanded={step === 'approve'}
          className="rounded bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60"
        >
          Approve…
        </button>
        <button
          type="button"
          onClick={() => setStep((s) => (s === 'reject' ? 'none' : 'reject'))}
          disabled={busy}
          aria-expanded={step === 'reject'}
          className="rounded border border-red-700 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 disabled:opacity-60"
        >
          Reject…
        </button>
      </div>
      {step === 'approve' ? (
        <ConfirmApprove
          row={row}
          what={what}
          expired={expired}
          busy={busy}
          approve={approve}
          onCancel={() => setStep('none')}
        />
      ) : null}
      {step === 'reject' ? (
        <RejectForm
          id={`reason-${row.id}`}
          reason={reason}
          setReason={setReason}
          busy={busy}
          pending={reject.isPending}
          label={`Reject ${what}`}
          onReject={() => reject.mutate()}
        />
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {error.message}
        </p>
      ) : null}
    </div>
  );
}
