'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import {
  inviteStaffAction,
  advanceClockAction,
  createTokenAction,
  setWebhookEndpointAction,
} from '@/app/console/_lib/actions';
import type { ActionResult } from '@/app/console/_lib/session';
import { LocalTime } from '@/components/time';

// The console's small forms: each submits to a server action through react-query and refreshes
// the server-rendered page on success. Secrets created here (a token's secret, a new staff
// member's password) are shown once, in this component's state only.
function useAction<A, T>(run: (args: A) => Promise<ActionResult<T>>) {
  const router = useRouter();
  return useMutation({
    mutationFn: async (args: A) => {
      const r = await run(args);
      if (!r.ok)
        throw new Error(
          r.fields?.length ? `${r.error} (${r.fields.map((f) => `${f.field}: ${f.message}`).join('; ')})` : r.error,
        );
      return r.value;
    },
    onSuccess: () => router.refresh(),
  });
}

const input = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5';
const primary = 'rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60';

function Outcome({ error, children }: { error?: Error | null; children?: React.ReactNode }) {
  if (error)
    return (
      <p role="alert" className="mt-2 text-sm text-red-800">
        {error.message}
      </p>
    );
  return children ? (
    <div role="status" className="mt-2 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
      {children}
    </div>
  ) : null;
}

export function TokenForm() {
  const m = useAction((a: { name: string; permissions: string[] }) => createTokenAction(a.name, a.permissions));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    m.mutate({ name: String(f.get('name') ?? ''), permissions: f.getAll('permissions').map(String) });
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      <div>
        <label htmlFor="token-name" className="block text-sm font-medium">
          Name
        </label>
        <input id="token-name" name="name" required maxLength={255} className={input} />
      </div>
      <fieldset>
        <legend className="text-sm font-medium">Permissions</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {['VIEW', 'TRANSACT', 'MANAGE'].map((p) => (
            <label key={p} className="flex items-center gap-1 text-sm">
              <input type="checkbox" name="permissions" value={p} defaultChecked={p === 'VIEW'} /> {p}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={m.isPending} className={primary}>
        {m.isPending ? 'Creating…' : 'Create token'}
      </button>
      <Outcome error={m.error}>
        {m.data ? (
          <>
            <p className="font-medium">Token created. Copy the secret now: it is not shown again.</p>
            <p className="mt-1 break-all">
              Client id: <code>{m.data.clientId}</code>
            </p>
            <p className="break-all">
              Client secret: <code>{m.data.clientSecret}</code>
            </p>
          </>
        ) : null}
      </Outcome>
    </form>
  );
}

export function WebhookEndpointForm({ current }: { current: string }) {
  const m = useAction((url: string) => setWebhookEndpointAction(url));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        m.mutate(String(new FormData(e.currentTarget).get('url') ?? ''));
      }}
      className="space-y-3"
    >
      <div>
        <label htmlFor="webhook-url" className="block text-sm font-medium">
          Webhook endpoint (empty to remove)
        </label>
        <input id="webhook-url" name="url" type="url" defaultValue={current} className={input} />
      </div>
      <button type="submit" disabled={m.isPending} className={primary}>
        {m.isPending ? 'Saving…' : 'Save endpoint'}
      </button>
      <Outcome error={m.error}>{m.isSuccess ? 'Saved.' : null}</Outcome>
    </form>
  );
}

export function ClockForm() {
  const m = useAction((seconds: number) => advanceClockAction(seconds));
  const [seconds, setSeconds] = useState('60');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        m.mutate(Number(seconds));
      }}
      className="space-y-3"
    >
      <div>
        <label htmlFor="clock-seconds" className="block text-sm font-medium">
          Advance by (seconds)
        </label>
        <input
          id="clock-seconds"
          name="seconds"
          type="number"
          min={1}
          step={1}
          value={seconds}
          onChange={(e) => setSeconds(e.target.value)}
          className={input}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        {[
          ['1 minute', 60],
          ['1 hour', 3600],
          ['1 day', 86400],
        ].map(([label, s]) => (
          <button
            key={label}
            type="button"
            onClick={() => setSeconds(String(s))}
            className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100"
          >
            {label}
          </button>
        ))}
      </div>
      <button type="submit" disabled={m.isPending} className={primary}>
        {m.isPending ? 'Advancing…' : 'Advance the clock'}
      </button>
      <Outcome error={m.error}>
        {m.data
          ? `Sandbox time is now ${m.data.now}; ${m.data.jobsRun} job(s) ran, ${m.data.webhooksDelivered} webhook(s) delivered.`
          : null}
      </Outcome>
    </form>
  );
}

export function StaffForm() {
  const m = useAction((a: { email: string; role: string }) => inviteStaffAction(a.email, a.role));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        m.mutate({ email: String(f.get('email') ?? ''), role: String(f.get('role') ?? 'viewer') });
      }}
      className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
    >
      <div>
        <label htmlFor="staff-email" className="block text-sm font-medium">
          Email
        </label>
        <input id="staff-email" name="email" type="email" required className={input} />
      </div>
      <div>
        <label htmlFor="staff-role" className="block text-sm font-medium">
          Role
        </label>
        <select id="staff-role" name="role" defaultValue="viewer" className={input}>
          <option value="viewer">viewer</option>
          <option value="operator">operator</option>
          <option value="admin">admin</option>
        </select>
      </div>
      <button type="submit" disabled={m.isPending} className={primary}>
        {m.isPending ? 'Inviting…' : 'Invite'}
      </button>
      <div className="sm:col-span-3">
        <Outcome error={m.error}>
          {m.data ? (
            <>
              <p className="font-medium">
                Hand this one-time link to {m.data.email}, shown only now; it sets their own password and works once,
                until <LocalTime value={m.data.expiresAt} />:
              </p>
              <p className="mt-1 break-all">
                <code data-testid="invitation-link">{`${window.location.origin}${m.data.path}`}</code>
              </p>
            </>
          ) : null}
        </Outcome>
      </div>
    </form>
  );
}

export function RoleSelect({
  userId,
  email,
  role,
  action,
}: {
  userId: string;
  email: string;
  role: string;
  action: (userId: string, role: string) => Promise<ActionResult<undefined>>;
}) {
  const m = useAction((r: string) => action(userId, r));
  return (
    <span className="inline-flex flex-col">
      <label className="sr-only" htmlFor={`role-${userId}`}>
        Role of {email}
      </label>
      <select
        id={`role-${userId}`}
        defaultValue={role}
        disabled={m.isPending}
        onChange={(e) => m.mutate(e.target.value)}
        className="rounded border border-slate-400 px-2 py-1 text-sm"
      >
        <option value="viewer">viewer</option>
        <option value="operator">operator</option>
        <option value="admin">admin</option>
      </select>
      {m.error ? (
        <span role="alert" className="text-sm text-red-800">
          {m.error.message}
        </span>
      ) : null}
    </span>
  );
}
