'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { formatAmount } from '../format';
import { LocalTime } from '../time';
import { call, type Json } from './api';
import { plainClass, Problem } from './ui';

// The customer's transactions, newest first, a page at a time.
export function Activity() {
  const q = useInfiniteQuery({
    queryKey: ['transactions'],
    queryFn: async ({ pageParam }) =>
      (await call('GET', `/transactions${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`)).data as Json,
    initialPageParam: '',
    getNextPageParam: (last: Json) => (last.hasMore ? last.nextCursor : undefined),
  });
  if (q.isPending) return <p className="text-sm text-slate-700">Loading…</p>;
  if (q.isError) return <Problem error={q.error} />;
  const rows = q.data.pages.flatMap((p: Json) => p.data as Json[]);
  if (!rows.length) return <p className="text-sm text-slate-700">No payments yet.</p>;
  return (
    <>
      <ul className="divide-y divide-slate-100">
        {rows.map((t: Json) => {
          const incoming = t.type === 'INCOMING';
          const money = incoming ? t.receivedAmount : t.sentAmount;
          return (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span>
                <span className="font-medium">{incoming ? 'Received' : 'Sent'}</span>{' '}
                <span className="text-slate-700">
                  <LocalTime value={t.createdAt} />
                </span>
                <span className="block text-slate-700">{String(t.status).toLowerCase()}</span>
              </span>
              <span className={`font-medium ${incoming ? 'text-emerald-800' : ''}`}>
                {incoming ? '+' : '−'}
                {money ? formatAmount(money.amount, money.currency?.code) : '—'}
              </span>
            </li>
          );
        })}
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
