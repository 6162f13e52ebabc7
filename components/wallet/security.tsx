'use client';
import { startRegistration } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LocalTime } from '../time';
import { call, requireFresh, signed, type Json } from './api';
import { exportKey, openExport, type SessionKey } from './crypto';
import { ConfirmThenRetry, shownError } from './reauth';
import { Field, inputClass, plainClass, primaryClass, Problem } from './ui';

// How the holder signs in (credentials: add a passkey, revoke one) and the wallet's export.
// Every change is a signed retry stamped here with the session key, and needs a fresh sign-in:
// refused on an older session, it asks the holder to confirm it's them, then goes again with the
// new session's key.
export function Security({ walletKey }: { walletKey: SessionKey }) {
  return (
    <div className="space-y-6">
      <Credentials walletKey={walletKey} />
      <AddPasskey walletKey={walletKey} />
      <Sessions walletKey={walletKey} />
      <RecoveryPhrase walletKey={walletKey} />
    </div>
  );
}

const credentialName = (type: string) => (type === 'PASSKEY' ? 'Passkey' : type === 'EMAIL_OTP' ? 'Email code' : type);

function Credentials({ walletKey }: { walletKey: SessionKey }) {
  const client = useQueryClient();
  const creds = useQuery({
    queryKey: ['credentials'],
    queryFn: async () => (await call('GET', '/credentials')).data.data as Json[],
  });
  const revoke = useMutation({
    mutationFn: async (v: { id: string; key: SessionKey }) => {
      await requireFresh();
      return signed('DELETE', `/credentials/${encodeURIComponent(v.id)}`, {}, v.key);
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ['credentials'] }),
  });
  return (
    <div>
      <h3 className="mb-2 font-medium">Ways to sign in</h3>
      {creds.isPending ? <p className="text-sm text-slate-700">Loading…</p> : null}
      <Problem error={creds.error} />
      <ul className="divide-y divide-slate-100">
        {(creds.data ?? []).map((c) => (
          <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span>
              <span className="font-medium">{credentialName(c.type)}</span> {c.nickname}
              <span className="block text-slate-700">
                added <LocalTime value={c.createdAt} />
              </span>
            </span>
            <button
              type="button"
              className={plainClass}
              disabled={revoke.isPending}
              aria-label={`Revoke ${c.type === 'PASSKEY' ? 'passkey' : 'credential'} ${c.nickname}`}
              onClick={() => revoke.mutate({ id: c.id, key: walletKey })}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <ConfirmThenRetry action={revoke} why="Removing a way to sign in needs a recent sign-in." />
      <Problem error={shownError(revoke.error)} />
    </div>
  );
}

/** The devices signed in to this wallet now; any other than this browser can be signed out. */
function Sessions({ walletKey }: { walletKey: SessionKey }) {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['sessions'],
    queryFn: async () => (await call('GET', '/sessions')).data.data as Json[],
  });
  const revoke = useMutation({
    mutationFn: async (v: { id: string; key: SessionKey }) => {
      await requireFresh();
      return signed('DELETE', `/sessions/${encodeURIComponent(v.id)}`, {}, v.key);
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ['sessions'] }),
  });
  return (
    <div>
      <h3 className="mb-2 font-medium">Devices signed in</h3>
      {list.isPending ? <p className="text-sm text-slate-700">Loading…</p> : null}
      <Problem error={list.error} />
      <ul aria-label="Devices signed in" className="divide-y divide-slate-100">
        {(list.data ?? []).map((x) => (
          <li key={x.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span>
              <span className="font-medium">{x.current ? 'This browser' : 'Another device'}</span> ·{' '}
              {credentialName(x.type)}
              <span className="block text-slate-700">
                signed in <LocalTime value={x.createdAt} />, until <LocalTime value={x.expiresAt} />
              </span>
            </span>
            {x.current ? null : (
              <button
                type="button"
                className={plainClass}
                disabled={revoke.isPending}
                aria-label={`Sign out the device signed in at ${new Date(x.createdAt).toISOString()}`}
                onClick={() => revoke.mutate({ id: x.id, key: walletKey })}
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      <ConfirmThenRetry action={revoke} why="Signing out another device needs a recent sign-in." />
      <Problem error={shownError(revoke.error)} />
    </div>
  );
}

function AddPasskey({ walletKey }: { walletKey: SessionKey }) {
  const client = useQueryClient();
  const [nickname, setNickname] = useState('');
  const add = useMutation({
    mutationFn: async ({ key }: { key: SessionKey }) => {
      await requireFresh();
      const options = (await call('POST', '/credentials/options', {})).data;
      const reg = await startRegistration({ optionsJSON: options });
      await signed(
        'POST',
        '/credentials',
        {
          nickname: nickname.trim() || 'Passkey',
          attestation: {
            credentialId: reg.id,
            clientDataJson: reg.response.clientDataJSON,
            attestationObject: reg.response.attestationObject,
            ...(reg.response.transports?.length ? { transports: reg.response.transports } : {}),
          },
        },
        key,
      );
    },
    onSuccess: () => {
      setNickname('');
      void client.invalidateQueries({ queryKey: ['credentials'] });
    },
  });
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate({ key: walletKey });
      }}
    >
      <Field id="passkey-name" label="Name of the new passkey">
        <input
          id="passkey-name"
          value={nickname}
          maxLength={100}
          onChange={(e) => setNickname(e.target.value)}
          placeholder="e.g. My laptop"
          className={inputClass}
        />
      </Field>
      <button type="submit" disabled={add.isPending} className={primaryClass}>
        {add.isPending ? 'Creating the passkey…' : 'Add a passkey'}
      </button>
      {add.isSuccess ? (
        <p role="status" className="text-sm text-emerald-800">
          Passkey added.
        </p>
      ) : null}
      <ConfirmThenRetry action={add} why="Adding a passkey needs a recent sign-in." />
      <Problem error={shownError(add.error)} />
    </form>
  );
}

function RecoveryPhrase({ walletKey }: { walletKey: SessionKey }) {
  const [phrase, setPhrase] = useState<string | null>(null);
  const exporting = useMutation({
    mutationFn: async (v: { key: SessionKey }) => {
      await requireFresh();
      const key = await exportKey();
      const r = await signed('POST', '/export', { clientPublicKey: key.publicKey }, v.key);
      return openExport(r.encryptedWalletCredentials, key);
    },
    onSuccess: (p) => setPhrase(p),
  });
  return (
    <div>
      <h3 className="mb-2 font-medium">Recovery phrase</h3>
      <p className="mb-2 text-sm text-slate-700">
        The wallet&apos;s 24 words, encrypted by the service to a key made in this browser and decrypted only here.
        Anyone who sees them controls the wallet.
      </p>
      {phrase ? (
        <>
          <p
            className="rounded border border-amber-300 bg-amber-50 p-3 font-mono text-sm break-words"
            aria-label="Recovery phrase"
          >
            {phrase}
          </p>
          <button type="button" className={`${plainClass} mt-2`} onClick={() => setPhrase(null)}>
            Hide
          </button>
        </>
      ) : (
        <button
          type="button"
          className={plainClass}
          disabled={exporting.isPending}
          onClick={() => exporting.mutate({ key: walletKey })}
        >
          {exporting.isPending ? 'Exporting…' : 'Show the recovery phrase'}
        </button>
      )}
      <ConfirmThenRetry action={exporting} why="The recovery phrase is shown only after a recent sign-in." />
      <Problem error={shownError(exporting.error)} />
    </div>
  );
}
