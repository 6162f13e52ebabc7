'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import { Activity } from './activity';
import { ApiError, call, sessionGone, signed, type Json } from './api';
import { money } from './figures';
import { SessionClock } from './session';
import { Cards } from './cards';
import { forgetSessionKey, loadSessionKey, type SessionKey } from './crypto';
import { Receive } from './receive';
import { Send } from './send';
import { Security } from './security';
import { SignIn } from './sign-in';
import { Card, plainClass, Problem } from './ui';

// The wallet: signed out, it is the sign-in; signed in (a session cookie, and the session key in
// this browser's IndexedDB), it is the balances, sending, the payments, the cards and the security settings.
export function WalletApp() {
  const client = useQueryClient();
  const state = useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      const key = await loadSessionKey();
      const me = (await call('GET', '/me')).data as Json;
      return me.signedIn ? { me, key: key ?? null } : { me: null, key: null };
    },
  });
  const signOut = useMutation({
    mutationFn: async (key: SessionKey | null) => {
      // Without the key (another browser, storage cleared) the session cannot be signed off: it
      // is forgotten here and ends on its own within minutes.
      if (key) await signed('POST', '/sign-out', {}, key);
      else await call('POST', '/sign-out', { local: true });
      await forgetSessionKey();
    },
    onSuccess: () => {
      // Signed out: drop what the signed-in view loaded (refetching it would only be refused).
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
      client.setQueryData(['me'], { me: null, key: null });
    },
  });
  const { notice, setNotice, expired } = useSessionEnd();
  const done = () => {
    setNotice(null);
    return client.invalidateQueries({ queryKey: ['me'] });
  };

  if (state.isPending) return <p className="text-slate-700">Loading…</p>;
  if (state.isError) return <Problem error={state.error} />;
  const { me, key } = state.data;
  if (!me) return <SignInCard notice={notice} onSignedIn={done} />;
  if (!key) return <CannotSign onSignOut={() => signOut.mutate(null)} />;
  const wallet = (me.accounts as Json[]).find((a) => a.id === me.walletAccountId);
  const currency = wallet?.balance?.currency?.code ?? 'USD';
  const ordered = [wallet, ...(me.accounts as Json[]).filter((a) => a !== wallet)].filter(Boolean);
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="text-lg font-semibold break-words">{me.customer.name || me.customer.email}</p>
          <p className="text-sm break-all text-slate-700">{me.customer.email}</p>
          <SessionClock key={me.session.id} secondsLeft={Number(me.session.secondsLeft ?? 0)} onExpired={expired} />
        </div>
        <button type="button" className={plainClass} disabled={signOut.isPending} onClick={() => signOut.mutate(key)}>
          {signOut.isPending ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
      <Problem error={signOut.error} />
      <Balances accounts={ordered} wallet={wallet} />
      <Card title="Send money">
        <Send currency={currency} available={BigInt(wallet?.balance?.amount ?? 0)} walletKey={key} />
      </Card>
      <Card title="Payments">
        <Activity accounts={ordered} walletId={me.walletAccountId} />
      </Card>
      <Card title="Receive money">
        <Receive umaAddress={me.customer.umaAddress ?? null} accounts={ordered} />
      </Card>
      <Card title="Cards">
        <Cards />
      </Card>
      <Card title="Security">
        <Security walletKey={key} />
      </Card>
      <p className="text-sm text-slate-700">
        <Link href="/" className="underline">
          About Corridor
        </Link>
      </p>
    </>
  );
}

/**
 * Signed out by the clock (or refused as signed out): nothing of the session stays on screen,
 * the sign-in comes back with the email filled in, and the payment being typed is kept
 * (components/wallet/send.tsx keeps its draft in sessionStorage).
 */
function useSessionEnd() {
  const client = useQueryClient();
  const [notice, setNotice] = useState<{ text: string; email: string } | null>(null);
  const endSession = useCallback(
    (text: string, known?: string) => {
      const email = known ?? (client.getQueryData(['me']) as { me?: Json } | undefined)?.me?.customer?.email ?? '';
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
      client.setQueryData(['me'], { me: null, key: null });
      setNotice({ text, email });
      void forgetSessionKey();
    },
    [client],
  );
  const expired = useCallback(
    () => endSession('Your session ended. Sign in again to continue; what you typed is kept.'),
    [endSession],
  );
  // Refused as signed out — a read or an action (the session ran out on the server, or another
  // device signed it out): the same end. A refused code (also a 401) is no end, nor a refusal
  // while already signed out.
  useEffect(() => {
    const signedIn = () => Boolean((client.getQueryData(['me']) as { me?: Json } | undefined)?.me);
    const reads = client.getQueryCache().subscribe((e) => {
      const err = e.query.state.error;
      if (e.query.queryKey[0] !== 'me' && err instanceof ApiError && err.status === 401 && signedIn()) expired();
    });
    const actions = client.getMutationCache().subscribe((e) => {
      if (e.type === 'updated' && sessionGone(e.mutation.state.error) && signedIn()) expired();
    });
    return () => {
      reads();
      actions();
    };
  }, [client, expired]);
  return { notice, setNotice, endSession, expired };
}

function SignInCard({
  notice,
  onSignedIn,
}: {
  notice: { text: string; email: string } | null;
  onSignedIn: () => void;
}) {
  return (
    <Card title="Sign in to your wallet">
      {notice ? (
        <p role="status" className="mb-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950">
          {notice.text}
        </p>
      ) : null}
      <SignIn onSignedIn={onSignedIn} initialEmail={notice?.email ?? ''} />
    </Card>
  );
}

function CannotSign({ onSignOut }: { onSignOut: () => void }) {
  return (
    <Card title="This browser cannot sign">
      <p className="mb-3 text-sm">
        You are signed in, but this browser no longer holds the session key (its storage was cleared). Sign out and in
        again.
      </p>
      <button type="button" className={plainClass} onClick={onSignOut}>
        Sign out
      </button>
    </Card>
  );
}

/** The wallet's balance first and largest, then the holder's other accounts. */
function Balances({ accounts, wallet }: { accounts: Json[]; wallet: Json | undefined }) {
  return (
    <Card title="Balances">
      <ul className="space-y-2">
        {accounts.map((a: Json) => (
          <li key={a.id} className="flex flex-wrap items-baseline justify-between gap-x-4">
            <span className="text-sm text-slate-700">
              {a === wallet ? 'Wallet' : 'Account'} ({a.balance.currency.code})
            </span>
            <span className={a === wallet ? 'text-2xl font-semibold' : 'text-lg'}>
              {money(a.balance.amount, a.balance.currency.code)}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
