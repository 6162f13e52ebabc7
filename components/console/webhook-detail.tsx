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
  replayedBy?: string | null;
}
interface Detail {
  id: string;
  type: string;
  status: string;
  skipReason: string | null;
  attempts: number;
  nextAttemptAt: string | null;
  body: string;
  history: Attempt[];
  /** Why a replay would be refused now (the endpoint does not take the kind, or there is none). */
  replayBlocked: string | null;
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
  // The replay's answer carries its own attempt: what the page says about the replay is that
  // attempt's result, never the event's earlier state or another attempt's.
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
          {d.skipReason === 'KIND_NOT_CHOSEN' ? ' — not sent: the endpoint does not receive this kind' : ''}
          {d.skipReason === 'NO_ENDPOINT' ? ' — not sent: no webhook endpoint was configured' : ''}
        </span>
        {canReplay ? (
          <button
            type="button"
            onClick={() => replay.mutate()}
            disabled={replay.isPending || d.status === 'PENDING' || d.replayBlocked !== null}
            aria-describedby={d.replayBlocked ? 'replay-blocked' : undefined}
            className="rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60"
          >
            {replay.isPending ? 'Replaying…' : 'Replay'}
          </button>
        ) : null}
        {canReplay && d.replayBlocked ? (
          // A replay would be refused: say so beside the disabled control, before anyone clicks.
          <span id="replay-blocked" className="text-sm text-slate-800">
            Replay is unavailable: {d.replayBlocked}.
          </span>
        ) : null}
        {replay.isError ? (
          <span role="alert" className="text-sm text-red-800">
            {replay.error.message}
          </span>
        ) : null}
        {replay.isPending ? (
          <span role="status" className="text-sm text-slate-700">
            Replay: sending… <Badge status="PENDING" />
          </span>
        ) : null}
        {replay.isSuccess ? <ReplayResult a={replay.data.attempt} /> : null}
      </div>
      <AttemptsTable history={[...d.history].reverse()} type={d.type} skipReason={d.skipReason} />
      <h3 className="mt-4 mb-1 font-medium">Body as recorded</h3>
      <pre className="max-h-80 overflow-auto rounded bg-slate-100 p-3 text-xs break-all whitespace-pre-wrap">
        {d.body}
      </pre>
    </div>
  );
}

type SentAttempt = Omit<Attempt, 'url'>;

function ReplayResult({ a }: { a: SentAttempt }) {
  return (
    <span role="status" className={`text-sm ${a.succeeded ? 'text-emerald-800' : 'text-red-800'}`}>
      Replay (attempt #{a.attempt}): <Badge status={a.succeeded ? 'DELIVERED' : 'FAILED'} />{' '}
      {a.responseStatus !== null ? `HTTP ${a.responseStatus}` : (a.error ?? 'no answer')}
    </span>
  );
}

// Which attempt it was: the worker's first try, a retry, or a replay (and by whom).
function attemptKind(a: Attempt, type: string): string {
  if (a.replayedBy) return `replay by ${a.replayedBy}`;
  if (type === 'TEST' && a.attempt === 1) return 'test send';
  return a.attempt === 1 ? 'first try' : 'retry';
}

const NOT_SENT: Record<string, string> = {
  NO_ENDPOINT: 'Never sent: the platform had no webhook endpoint.',
  KIND_NOT_CHOSEN: 'Never sent: the webhook endpoint does not receive this kind of event.',
};

function AttemptsTable({ history, type, skipReason }: { history: Attempt[]; type: string; skipReason: string | null }) {
  if (!history.length)
    return <Empty>{(skipReason && NOT_SENT[skipReason]) ?? 'Not sent yet: waiting for its first attempt.'}</Empty>;
  return (
    <Table caption="Delivery attempts, oldest first" head={['Attempt', 'Sent', 'Response', 'Latency', 'Answer']}>
      {history.map((a) => (
        <tr key={a.attempt}>
          <Cell>
            #{a.attempt} <Badge status={a.succeeded ? 'DELIVERED' : 'FAILED'} />
            <span className="block text-xs text-slate-700">{attemptKind(a, type)}</span>
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
