'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LocalTime } from '../time';
import { call, type Json } from './api';
import { money } from './figures';
import { EntryDetail } from './entry-detail';
import { Field, inputClass, plainClass, Problem } from './ui';

const KIND = {
  SENT: 'Sent to',
  RECEIVED: 'Received from',
  CARD_PURCHASE: 'Card purchase at',
  CARD_REFUND: 'Card refund from',
  REFUND: 'Refund of the payment to',
} as Record<string, string>;

export const accountName = (a: Json, walletId: string) =>
  a.id === walletId ? `Wallet (${a.balance.currency.code})` : `${a.balance.currency.code} account`;

// What moved money in one of the holder's accounts (the wallet first; a filter picks another),
// newest first, a page at a time; each entry names the other side and opens its detail.
export function Activity({ accounts, walletId }: { accounts: Json[]; walletId: string }) {
  const [accountId, setAccountId] = useState(walletId);
  const [open, setOpen] = useState<string | null>(null);
  const q = useInfiniteQuery({
    queryKey: ['history', accountId],
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ accountId });
      if (pageParam) params.set('cursor', pageParam);
      return (await call('GET', `/history?${params}`)).data as Json;
    },
    initialPageParam: '',
    getNextPageParam: (last: Json) => (last.hasMore ? last.nextCursor : undefined),
  });
  const rows = q.data ? q.data.pages.flatMap((p: Json) => p.data as Json[]) : [];
  return (
    <>
      {accounts.length > 1 ? (
        <Field id="history-account" label="Account">
          <select
            id="history-account"
            className={inputClass}
            value={accountId}
            onChange={(e) => {
              setAccountId(e.target.value);
              setOpen(null);
            }}
          >
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {accountName(a, walletId)}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      {q.isPending ? <p className="text-sm text-slate-700">Loading…</p> : null}
      <Problem error={q.error} />
      {q.isSuccess && !rows.length ? <p className="mt-2 text-sm text-slate-700">No payments yet.</p> : null}
      <ul aria-label="Payments" className="mt-2 divide-y divide-slate-100">
        {rows.map((e: Json) => (
          // A refund is an entry of its own on the same transaction as its payment.
          <li key={`${e.kind}:${e.id}`} className="py-2 text-sm">
            <button
              type="button"
              aria-expanded={open === `${e.kind}:${e.id}`}
              className="flex w-full flex-wrap items-start justify-between gap-2 text-left"
              onClick={() => setOpen(open === `${e.kind}:${e.id}` ? null : `${e.kind}:${e.id}`)}
            >
              <span className="min-w-0">
                <span className="font-medium break-words">
                  {KIND[e.kind] ?? e.kind} {e.counterparty}
                </span>
                <span className="block text-slate-700">
                  <LocalTime value={e.createdAt} /> · {statusText(e)}
                </span>
                {e.description ? <span className="block break-words text-slate-700">“{e.description}”</span> : null}
              </span>
              <span className={`font-medium whitespace-nowrap ${BigInt(e.amount) > 0n ? 'text-emerald-800' : ''}`}>
                {BigInt(e.amount) > 0n ? '+' : ''}
                {money(e.amount, e.currency)}
              </span>
            </button>
            {open === `${e.kind}:${e.id}` ? <Detail id={e.id} accountId={accountId} /> : null}
          </li>
        ))}
      </ul>
      {q.hasNextPage ? (
        <button
          type="button"
          className={`${plainClass} mt-3`}
          disabled={q.isFetchingNextPage}
          onClick={() => q.fetchNextPage()}
        >
          {q.isFetchingNextPage ? 'Loading…' : 'Show older payments'}
        </button>
      ) : null}
    </>
  );
}

/** The status in words; a failure says why. A payment on its way is still pending to its holder. */
export function statusText(e: Json): string {
  const s = e.status === 'PROCESSING' ? 'pending (on its way)' : String(e.status).toLowerCase().replace(/_/g, ' ');
  return e.failureReason ? `${s}: ${String(e.failureReason).toLowerCase().replace(/_/g, ' ')}` : s;
}

function Detail({ id, accountId }: { id: string; accountId: string }) {
  const d = useQuery({
    queryKey: ['history-entry', id, accountId],
    queryFn: async () =>
      (await call('GET', `/history/${encodeURIComponent(id)}?accountId=${encodeURIComponent(accountId)}`)).data as Json,
  });
  if (d.isPending) return <p className="mt-2 text-sm text-slate-700">Loading…</p>;
  if (d.isError) return <Problem error={d.error} />;
  return <EntryDetail detail={d.data} />;
}
