'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { replayWebhookAction } from '@/app/console/_lib/actions';
import { LocalTime } from '../time';
import { Badge, Cell, Empty, Table } from '../ui';

interface Attempt {
  attempt: number;
  url: string;
  startedAt: string;
  responseStatus: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
  succeeded: boolean;
}
interface Detail {
  id: string;
  type: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  body: string;
  history: Attempt[];
}

// One webhook event as the console shows it: its attempts, refreshed by react-query while the
// event waits to be sent, and a replay (a server action) after which the list updates in place.
// The pattern for any console page that acts and then watches the result.
export function WebhookDetail({ id, canReplay }: { id: string; canReplay: boolean }) {
  const client = useQueryClient();
  const router = useRouter();
  const key = ['webhook', id];
  const query = useQuery({
    queryKey: key,
    queryFn: async (): Promise<Detail> => {
      const res = await fetch(`/console/api/webhooks/${encodeURIComponent(id)}`, { cache: 'no-store' });
      if (!res.ok) throw new Error(res.status === 401 ? 'Your session has ended; sign in again' : `HTTP ${res.status}`);
      return res.json();
    },
    refetchInterval: (q) => (q.state.data?.status === 'PENDING' ? 1000 : false),
  });
  const replay = useMutation({
    mutationFn: async () => {
      const r = await replayWebhookAction(id);
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: key });
      router.refresh(); // the server-rendered parts (the audit trail) show the replay too
    },
  });
  if (query.isPending) return <p className="text-sm text-slate-700">Loading…</p>;
  if (query.isError)
    return (
      <p role="alert" className="text-sm text-red-800">
        Could not load the deliveries: {query.error.message}
      </p>
    );
  const d = query.data;
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <span className="text-sm">
          Delivery status <Badge status={d.status} /> after {d.attempts} attempt(s)
        </span>
        {canReplay ? (
          <button
            type="button"
            onClick={() => replay.mutate()}
            disabled={replay.isPending || d.status === 'PENDING'}
            className="rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60"
          >
            {replay.isPending ? 'Replaying…' : 'Replay'}
          </button>
        ) : null}
        {replay.isError ? (
          <span role="alert" className="text-sm text-red-800">
            {replay.error.message}
          </span>
        ) : null}
        {replay.isSuccess ? (
          <span role="status" className="text-sm text-emerald-800">
            Replayed: {replay.data.responseStatus !== null ? `HTTP ${replay.data.responseStatus}` : replay.data.status}
          </span>
        ) : null}
      </div>
      <AttemptsTable history={d.history} />
      <h3 className="mt-4 mb-1 font-medium">Body as recorded</h3>
      <pre className="max-h-80 overflow-auto rounded bg-slate-100 p-3 text-xs break-all whitespace-pre-wrap">
        {d.body}
      </pre>
    </div>
  );
}

function AttemptsTable({ history }: { history: Attempt[] }) {
  if (!history.length) return <Empty>Never sent (the platform had no webhook endpoint when it was recorded).</Empty>;
  return (
    <Table caption="Delivery attempts" head={['Attempt', 'Sent', 'Response', 'Latency', 'Answer']}>
      {history.map((a) => (
        <tr key={a.attempt}>
          <Cell>
            #{a.attempt} <Badge status={a.succeeded ? 'DELIVERED' : 'FAILED'} />
          </Cell>
          <Cell>
            <LocalTime value={a.startedAt} />
          </Cell>
          <Cell>{a.responseStatus !== null ? `HTTP ${a.responseStatus}` : (a.error ?? 'no answer')}</Cell>
          <Cell>{a.latencyMs} ms</Cell>
          <Cell mono>{a.responseExcerpt?.slice(0, 120) ?? ''}</Cell>
        </tr>
      ))}
    </Table>
  );
}
