'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { chooseWebhookKindsAction, sendTestWebhookAction } from '@/app/console/_lib/actions';
import { LocalTime } from '../time';
import { Badge } from '../ui';

// The webhooks page's controls: send a TEST event to the configured endpoint and see that one
// attempt's outcome (operators), and choose which event kinds the endpoint receives (admins).
// Both go through server actions (lib/staff/commands.ts), audited as staff actions.
const primary = 'rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60';
const plain =
  'rounded border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-100';

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

export function SendTestEvent() {
  const router = useRouter();
  const m = useMutation({
    mutationFn: async () => unwrap(await sendTestWebhookAction()),
    onSuccess: () => router.refresh(), // the delivery log below gains the TEST event
  });
  const a = m.data?.attempt;
  return (
    <div className="space-y-2">
      <button type="button" className={primary} disabled={m.isPending} onClick={() => m.mutate()}>
        {m.isPending ? 'Sending the test event…' : 'Send a test event'}
      </button>
      {m.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {m.error.message}
        </p>
      ) : null}
      {m.data && a ? (
        <div
          role="status"
          aria-label="Test event result"
          className="rounded border border-slate-300 bg-slate-50 p-3 text-sm break-words"
        >
          <p>
            Test event <Badge status={m.data.delivered ? 'DELIVERED' : 'FAILED'} />{' '}
            {a.responseStatus !== null ? `HTTP ${a.responseStatus}` : (a.error ?? 'no answer')} in {a.latencyMs} ms,
            sent <LocalTime value={a.startedAt} />
          </p>
          <p className="mt-1">
            <a className="text-blue-800 underline" href={`/console/webhooks/${encodeURIComponent(m.data.eventId)}`}>
              TEST event
            </a>{' '}
            <span className="font-mono text-xs break-all">{m.data.eventId}</span>
          </p>
          {a.responseExcerpt ? (
            <p className="mt-1">
              Response: <span className="font-mono text-xs break-all">{a.responseExcerpt}</span>
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The kinds grouped by the object they are about (the part before the dot). */
function groups(kinds: readonly string[]): [string, string[]][] {
  const by = new Map<string, string[]>();
  for (const k of kinds) {
    const head = k.split('.')[0];
    by.set(head, [...(by.get(head) ?? []), k]);
  }
  return [...by];
}

export function EventKindsForm({
  kinds,
  chosen,
  canEdit,
}: {
  kinds: readonly string[];
  chosen: string[];
  canEdit: boolean;
}) {
  const router = useRouter();
  const [picked, setPicked] = useState(() => new Set(chosen));
  const m = useMutation({
    mutationFn: async (list: string[]) => unwrap(await chooseWebhookKindsAction(list)),
    onSuccess: () => router.refresh(),
  });
  const toggle = (k: string, on: boolean) =>
    setPicked((s) => {
      const next = new Set(s);
      if (on) next.add(k);
      else next.delete(k);
      return next;
    });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        m.mutate(kinds.filter((k) => picked.has(k)));
      }}
      className="space-y-3"
    >
      <KindGroups kinds={kinds} picked={picked} toggle={toggle} disabled={!canEdit} />
      {canEdit ? (
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className={primary} disabled={m.isPending}>
            {m.isPending ? 'Saving…' : 'Save event kinds'}
          </button>
          <button type="button" className={plain} onClick={() => setPicked(new Set(kinds))}>
            Select all
          </button>
          <button type="button" className={plain} onClick={() => setPicked(new Set())}>
            Select none
          </button>
        </div>
      ) : (
        <p className="text-sm text-slate-700">Only an admin can change which kinds are sent.</p>
      )}
      {m.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {m.error.message}
        </p>
      ) : null}
      {m.isSuccess ? (
        <p role="status" className="text-sm text-emerald-800">
          Saved: {m.data.all ? 'every kind is sent' : `${m.data.chosen.length} of ${kinds.length} kinds are sent`}.
        </p>
      ) : null}
    </form>
  );
}

function KindGroups({
  kinds,
  picked,
  toggle,
  disabled,
}: {
  kinds: readonly string[];
  picked: Set<string>;
  toggle: (k: string, on: boolean) => void;
  disabled: boolean;
}) {
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
      {groups(kinds).map(([head, list]) => (
        <fieldset key={head} className="rounded border border-slate-300 p-2">
          <legend className="px-1 text-sm font-medium">{head}</legend>
          {list.map((k) => (
            <label key={k} className="flex items-start gap-2 py-0.5 text-sm break-all">
              <input
                type="checkbox"
                className="mt-1"
                name="eventTypes"
                value={k}
                checked={picked.has(k)}
                disabled={disabled}
                onChange={(e) => toggle(k, e.currentTarget.checked)}
              />
              <span>{k.slice(head.length + 1)}</span>
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}
