'use client';
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { Badge } from '../ui';
import { LIVE_INTERVAL_MS } from './live';

type State = { status: string; updatedAt: string };

/**
 * A transaction's status that follows the transaction: polled every few seconds; when the
 * transaction changes, the server-rendered rest of the page (timeline, postings) refreshes too.
 */
export function LiveStatus({ id, initial }: { id: string; initial: State }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: ['console-transaction', id],
    initialData: initial,
    queryFn: async (): Promise<State> => {
      const res = await fetch(`/console/api/transactions/${encodeURIComponent(id)}`, { cache: 'no-store' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.json();
    },
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const seen = useRef(initial.updatedAt);
  useEffect(() => {
    if (data.updatedAt === seen.current) return;
    seen.current = data.updatedAt;
    router.refresh();
  }, [data.updatedAt, router]);
  return (
    <span aria-live="polite" data-testid="live-status">
      <Badge status={data.status} />
    </span>
  );
}
