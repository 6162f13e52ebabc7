'use client';
import { startAuthentication } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call, signed } from './api';
import { newSessionKey, saveSessionKey, sealOtp, type SessionKey } from './crypto';
import { Field, inputClass, plainClass, primaryClass, Problem } from './ui';

const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A passkey sign-in: a session key made here, the passkey's assertion over the service's challenge. */
function usePasskeySignIn(email: string, onSignedIn: () => void) {
  return useMutation({
    mutationFn: async () => {
      const key = await newSessionKey();
      const r = await call('POST', '/sign-in/start', { email, method: 'PASSKEY', clientPublicKey: key.publicKey });
      const assertion = await startAuthentication({
        optionsJSON: {
          // The service's challenge is hex text; WebAuthn signs its UTF-8 bytes.
          challenge: b64url(r.data.challenge),
          allowCredentials: [{ id: r.data.credentialId, type: 'public-key' }],
          rpId: r.data.rpId,
          userVerification: 'preferred',
          timeout: 120_000,
        },
      });
      await call(
        'POST',
        '/sign-in/verify',
        {
          type: 'PASSKEY',
          assertion: {
            credentialId: assertion.id,
            clientDataJson: assertion.response.clientDataJSON,
            authenticatorData: assertion.response.authenticatorData,
            signature: assertion.response.signature,
            ...(assertion.response.userHandle ? { userHandle: assertion.response.userHandle } : {}),
          },
        },
        { 'Request-Id': r.data.requestId },
      );
      await saveSessionKey(key);
    },
    onSuccess: onSignedIn,
  });
}

// Sign-in with the email on file: either a one-time code sent by email (sealed in the browser
// to the service's target key, then the session key stamps the login), or a passkey. Either way
// the session key is made here, can sign but not be read, and stays in this browser.
export function SignIn({ onSignedIn, initialEmail = '' }: { onSignedIn: () => void; initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [pending, setPending] = useState<{ bundle: string; key: SessionKey; sentAt: number } | null>(null);
  const [code, setCode] = useState('');

  const sendCode = useMutation({
    mutationFn: async () => {
      const key = await newSessionKey();
      const r = await call('POST', '/sign-in/start', { email, method: 'EMAIL_OTP' });
      return { bundle: r.data.otpEncryptionTargetBundle as string, key, sentAt: Date.now() };
    },
    onSuccess: (p) => {
      setCode('');
      setPending(p);
    },
  });
  const verifyCode = useMutation({
    mutationFn: async () => {
      if (!pending) throw new Error('Ask for a code first');
      const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await sealOtp(pending.bundle, code.trim(), pending.key) };
      await signed('POST', '/sign-in/verify', body, pending.key);
      await saveSessionKey(pending.key);
    },
    onSuccess: onSignedIn,
  });
  const passkey = usePasskeySignIn(email, onSignedIn);

  if (pending)
    return (
      <CodeForm
        email={email}
        code={code}
        setCode={setCode}
        verifying={verifyCode.isPending}
        error={verifyCode.error}
        onVerify={() => verifyCode.mutate()}
        onOtherEmail={() => setPending(null)}
        sentAt={pending.sentAt}
        resending={sendCode.isPending}
        resendError={sendCode.error}
        onResend={() => sendCode.mutate()}
      />
    );
  return (
    <EmailForm
      email={email}
      setEmail={setEmail}
      sending={sendCode.isPending}
      passkeyPending={passkey.isPending}
      error={sendCode.error ?? passkey.error}
      onSendCode={() => sendCode.mutate()}
      onPasskey={() => passkey.mutate()}
    />
  );
}

function CodeForm({
  email,
  code,
  setCode,
  verifying,
  error,
  onVerify,
  onOtherEmail,
  sentAt,
  resending,
  resendError,
  onResend,
}: {
  email: string;
  code: string;
  setCode: (code: string) => void;
  verifying: boolean;
  error: Error | null;
  onVerify: () => void;
  onOtherEmail: () => void;
  sentAt: number;
  resending: boolean;
  resendError: Error | null;
  onResend: () => void;
}) {
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        onVerify();
      }}
    >
      <p className="text-sm">
        If a wallet is registered with <strong>{email}</strong>, we sent a code there. In the sandbox the code is always
        000000.
      </p>
      <Field id="otp-code" label="Code from the email">
        <input
          id="otp-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
          className={inputClass}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={verifying} className={primaryClass}>
          {verifying ? 'Signing in…' : 'Sign in'}
        </button>
        <button type="button" onClick={onOtherEmail} className={plainClass}>
          Use another email
        </button>
      </div>
      <Resend sentAt={sentAt} resending={resending} onResend={onResend} />
      <Problem error={error ?? resendError} />
    </form>
  );
}

function EmailForm({
  email,
  setEmail,
  sending,
  passkeyPending,
  error,
  onSendCode,
  onPasskey,
}: {
  email: string;
  setEmail: (email: string) => void;
  sending: boolean;
  passkeyPending: boolean;
  error: Error | null;
  onSendCode: () => void;
  onPasskey: () => void;
}) {
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSendCode();
      }}
    >
      <Field id="wallet-email" label="Email">
        <input
          id="wallet-email"
          type="email"
          autoComplete="username webauthn"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={inputClass}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={sending} className={primaryClass}>
          {sending ? 'Sending…' : 'Email me a code'}
        </button>
        <button type="button" disabled={!email || passkeyPending} onClick={onPasskey} className={plainClass}>
          {passkeyPending ? 'Waiting for the passkey…' : 'Sign in with a passkey'}
        </button>
      </div>
      <IpHostNote />
      <Problem error={error} />
    </form>
  );
}

/**
 * Passkeys belong to a domain name (the relying party is CORRIDOR_PUBLIC_URL's host); a browser
 * refuses them on an IP address such as 127.0.0.1, so the page says where they work instead.
 */
function IpHostNote() {
  const [host, setHost] = useState<string | null>(null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the address bar is known only in the browser
    if (/^[\d.]+$|^\[/.test(location.hostname)) setHost(location.hostname);
  }, []);
  if (!host) return null;
  return (
    <p className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950">
      Passkeys do not work on an IP address such as {host}: open this page by its name (for example http://localhost:
      {location.port || '80'}, the host of CORRIDOR_PUBLIC_URL). The email code works here.
    </p>
  );
}

/** A new code may be asked for 30 seconds after the last (the service's throttle): counted down here. */
const RESEND_AFTER_SECONDS = 30;

function Resend({ sentAt, resending, onResend }: { sentAt: number; resending: boolean; onResend: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const wait = Math.max(0, RESEND_AFTER_SECONDS - Math.floor((now - sentAt) / 1000));
  return (
    <p className="text-sm text-slate-700">
      No code?{' '}
      <button
        type="button"
        className="font-medium text-blue-800 underline disabled:text-slate-600 disabled:no-underline"
        disabled={wait > 0 || resending}
        onClick={onResend}
      >
        {resending ? 'Sending…' : wait > 0 ? `Send a new code in ${wait} s` : 'Send a new code'}
      </button>
    </p>
  );
}
