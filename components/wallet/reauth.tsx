'use client';
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { call, needsConfirmation, signed, type Json } from './api';
import { passkeySignIn, sendCode, verifyCode, type PendingCode } from './ceremonies';
import type { SessionKey } from './crypto';
import { Resend } from './sign-in';
import { Field, inputClass, plainClass, primaryClass, Problem } from './ui';

// "Confirm it's you": signing in again in place, with the wallet's passkey or an email code,
// without leaving the page. It opens a new wallet session (the server swaps this browser's
// cookie; the new key is saved here), ends the one it replaces, and refreshes what is on screen.
// Used to extend a session about to end and before the recovery phrase or a change to how the
// wallet signs in, which the server refuses on a session older than a few minutes.
export function ConfirmItsYou({
  why,
  onConfirmed,
  onCancel,
}: {
  why: string;
  onConfirmed: (key: SessionKey) => void;
  onCancel?: () => void;
}) {
  const { email, hasPasskey, pending, code, setCode, passkey, codeSent, codeChecked } = useConfirmation(onConfirmed);
  return (
    <section
      aria-label="Confirm it's you"
      className="mt-2 space-y-3 rounded border border-blue-300 bg-blue-50 p-3 text-sm text-slate-900"
    >
      <p className="font-medium">Confirm it&apos;s you</p>
      <p>{why}</p>
      {pending ? (
        <ConfirmCode
          email={email}
          code={code}
          setCode={setCode}
          confirming={codeChecked.isPending}
          onConfirm={() => codeChecked.mutate()}
          sentAt={pending.sentAt}
          resending={codeSent.isPending}
          onResend={() => codeSent.mutate()}
        />
      ) : (
        <div className="flex flex-wrap gap-2">
          {hasPasskey ? (
            <button
              type="button"
              className={primaryClass}
              disabled={passkey.isPending}
              onClick={() => passkey.mutate()}
            >
              {passkey.isPending ? 'Waiting for the passkey…' : 'Confirm with my passkey'}
            </button>
          ) : null}
          <button type="button" className={plainClass} disabled={codeSent.isPending} onClick={() => codeSent.mutate()}>
            {codeSent.isPending ? 'Sending…' : 'Email me a code'}
          </button>
          {onCancel ? (
            <button type="button" className={plainClass} onClick={onCancel}>
              Not now
            </button>
          ) : null}
        </div>
      )}
      <Problem error={passkey.error ?? codeSent.error ?? codeChecked.error} />
    </section>
  );
}

/** The two ways to confirm (the wallet's passkey, an email code) and the session they replace. */
function useConfirmation(onConfirmed: (key: SessionKey) => void) {
  const client = useQueryClient();
  const me = (client.getQueryData(['me']) as { me?: Json } | undefined)?.me;
  const email: string = me?.customer?.email ?? '';
  const creds = useQuery({
    queryKey: ['credentials'],
    queryFn: async () => (await call('GET', '/credentials')).data.data as Json[],
  });
  const hasPasskey = (creds.data ?? []).some((c) => c.type === 'PASSKEY');
  const [pending, setPending] = useState<PendingCode | null>(null);
  const [code, setCode] = useState('');

  const replaced = async (key: SessionKey) => {
    // The session replaced ends now rather than lingering as "another device" until it expires.
    const old = me?.session?.id as string | undefined;
    if (old) await signed('DELETE', `/sessions/${encodeURIComponent(old)}`, {}, key).catch(() => undefined);
    await client.invalidateQueries();
    return key;
  };
  const passkey = useMutation({
    // Any of this wallet's passkeys answers (the device at hand may hold only one of them).
    mutationFn: async () => replaced(await passkeySignIn({ confirm: true })),
    onSuccess: onConfirmed,
  });
  const codeSent = useMutation({
    mutationFn: () => sendCode(email),
    onSuccess: (p) => {
      setCode('');
      setPending(p);
    },
  });
  const codeChecked = useMutation({
    mutationFn: async () => {
      if (!pending) throw new Error('Ask for a code first');
      return replaced(await verifyCode(pending, code));
    },
    onSuccess: onConfirmed,
  });

  return { email, hasPasskey, pending, code, setCode, passkey, codeSent, codeChecked };
}

function ConfirmCode(p: {
  email: string;
  code: string;
  setCode: (code: string) => void;
  confirming: boolean;
  onConfirm: () => void;
  sentAt: number;
  resending: boolean;
  onResend: () => void;
}) {
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        p.onConfirm();
      }}
    >
      <p>
        We sent a code to <strong className="break-all">{p.email}</strong>. In the sandbox the code is always 000000.
      </p>
      <Field id="confirm-code" label="Code to confirm">
        <input
          id="confirm-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={p.code}
          onChange={(e) => p.setCode(e.target.value)}
          className={inputClass}
        />
      </Field>
      <button type="submit" disabled={p.confirming} className={primaryClass}>
        {p.confirming ? 'Confirming…' : 'Confirm'}
      </button>
      <Resend sentAt={p.sentAt} resending={p.resending} onResend={p.onResend} />
    </form>
  );
}

/**
 * Under an action the server refused until the holder confirms it is them: the confirmation,
 * then the same action again with the new session's key.
 */
export function ConfirmThenRetry<V extends { key: SessionKey }>({
  action,
  why,
}: {
  action: UseMutationResult<unknown, Error, V>;
  why: string;
}) {
  if (!needsConfirmation(action.error) || !action.variables) return null;
  const retry = action.variables;
  return (
    <ConfirmItsYou why={why} onConfirmed={(key) => action.mutate({ ...retry, key })} onCancel={() => action.reset()} />
  );
}

/** An action's error as the page shows it: a request to confirm is shown as the confirmation instead. */
export const shownError = (err: unknown) => (needsConfirmation(err) ? null : err);
