'use client';
import { useEffect, useRef, useState } from 'react';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { LiveSnapshot } from '@/app/console/_lib/live';

// The console's live figures (app/console/_lib/live.ts), polled through react-query. Layouts do
// not re-render on client navigation, so without this the badge kept the count of the page the
// session started on. Every 3 s keeps every figure within the 5 s staff are promised with room
// for a slow answer (4 s left none on a loaded server).
export const LIVE_INTERVAL_MS = 3000;

export function useLive(initial: LiveSnapshot, overview = false) {
  return useQuery({
    queryKey: ['console-live', overview],
    initialData: initial,
    queryFn: async (): Promise<LiveSnapshot> => {
      const res = await fetch(`/console/api/live${overview ? '?overview=1' : ''}`, { cache: 'no-store' });
      if (!res.ok) throw new Error(res.status === 401 ? 'Your session has ended; sign in again' : `HTTP ${res.status}`);
      return res.json();
    },
    refetchInterval: LIVE_INTERVAL_MS,
    refetchIntervalInBackground: true,
  });
}

type Newest = NonNullable<LiveSnapshot['newest']>;

/**
 * A notice when an agent action is held after the page opened, on whichever console page staff
 * are on: quote-based actions expire minutes after they are held, so waiting for someone to open
 * the queue lets them die unseen. Only a newer action raises it (one decided elsewhere does not).
 */
export function HeldNotice({ newest }: { newest: LiveSnapshot['newest'] }) {
  // The newest hold when the page opened ('' when none): anything held later is news.
  const seen = useRef<string>(newest?.createdAt ?? '');
  const [shown, setShown] = useState<Newest | null>(null);
  useEffect(() => {
    if (!newest || newest.createdAt <= seen.current) return;
    seen.current = newest.createdAt;
    setShown(newest);
  }, [newest]);
  return (
    // A live region without the status role: pages keep their own role="status" messages, and
    // a second status region on every page would make them ambiguous.
    <div aria-live="polite" data-testid="held-notice">
      {shown ? (
        <div className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 shadow-sm">
          <span className="min-w-0 flex-1 break-words">
            <strong>New action waiting for approval:</strong> {shown.agent}
            {shown.amount ? ` wants to move ${shown.amount}` : ' needs a decision'}.
          </span>
          <Link
            href="/console/approvals"
            onClick={() => setShown(null)}
            className="rounded bg-slate-900 px-3 py-1 font-medium text-white hover:bg-slate-700"
          >
            Review
          </Link>
          <button
            type="button"
            onClick={() => setShown(null)}
            className="rounded border border-amber-700 px-3 py-1 hover:bg-amber-100"
          >
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The overview's counters, live; a change also refreshes the page's lists (server-rendered). */
export function OverviewCounters({ initial }: { initial: LiveSnapshot }) {
  const { data } = useLive(initial, true);
  const router = useRouter();
  const o = data.overview;
  const signature = o
    ? `${o.approvals}|${o.payments}|${o.reviews}|${o.failedWebhooks}|${o.railWaiting}|${o.refundsForStaff}`
    : '';
  const last = useRef(signature);
  useEffect(() => {
    if (last.current === signature) return;
    last.current = signature;
    router.refresh();
  }, [signature, router]);
  if (!o) return null;
  return (
    <div className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
      <Stat label="Agent actions to approve" value={o.approvals} href="/console/approvals" />
      <Stat label="Payments awaiting approval" value={o.payments} href="/console/transactions?status=PENDING" />
      <Stat label="Verifications to review" value={o.reviews} href="/console/customers?status=PENDING" />
      <Stat label="Failed webhooks" value={o.failedWebhooks} href="/console/webhooks?status=FAILED" />
      <Stat label="Waiting on the payment rail" value={o.railWaiting} href="/console/transactions?rail=WAITING" />
      <Stat label="Refunds needing staff" value={o.refundsForStaff} href="/console/transactions?rail=STAFF" />
    </div>
  );
}

function Stat({ label, value, href }: { label: string; value: number | string; href: string }) {
  return (
    <Link
      href={href}
      className="block min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-slate-400"
    >
      <span className="block text-sm text-slate-700">{label}</span>
      <span className="mt-1 block text-3xl font-semibold" data-testid="stat-value">
        {value}
      </span>
    </Link>
  );
}
