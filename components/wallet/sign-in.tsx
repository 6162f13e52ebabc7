'use client';
import { browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { cancelPasskeyAutofill, passkeySignIn, sendCode, verifyCode, type PendingCode } from './ceremonies';
import { Field, inputClass, plainClass, primaryClass, Problem } from './ui';

// Sign-in, passkey first: "Sign in with a passkey" needs no email (the browser offers this site's
// discoverable passkeys) — with an email typed (or kept from a session that ended), it asks for
// any passkey of that wallet — and where the browser supports it the email field's autofill offers
// them too (WebAuthn conditional UI). The email code is the fallback, with a resend countdown.
// Either way the session key is made here, can sign but not be read, and stays in this browser.
export function SignIn({ onSignedIn, initialEmail = '' }: { onSignedIn: () => void; initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [pending, setPending] = useState<PendingCode | null>(null);
  const [code, setCode] = useState('');

  const codeSent = useMutation({
    mutationFn: () => {
      cancelPasskeyAutofill();
      return sendCode(email);
    },
    onSuccess: (p) => {
      setCode('');
      setPending(p);
    },
  });
  const codeChecked = useMutation({
    mutationFn: () => {
      if (!pending) throw new Error('Ask for a code first');
      return verifyCode(pending, code);
    },
    onSuccess: onSignedIn,
  });
  const passkey = useMutation({
    // With an email typed, that wallet's passkeys, each listed: the browser asks for those only,
    // including one it would not offer unasked (not discoverable: registered through the API).
    mutationFn: () => passkeySignIn(email.trim() ? { email: email.trim() } : {}),
    onSuccess: onSignedIn,
  });
  usePasskeyAutofill(!pending, onSignedIn);

  if (pending)
    return (
      <CodeForm
        email={email}
        code={code}
        setCode={setCode}
        verifying={codeChecked.isPending}
        error={codeChecked.error}
        onVerify={() => codeChecked.mutate()}
        onOtherEmail={() => setPending(null)}
        sentAt={pending.sentAt}
        resending={codeSent.isPending}
        resendError={codeSent.error}
        onResend={() => codeSent.mutate()}
      />
    );
  return (
    <EmailForm
      email={email}
      setEmail={setEmail}
      sending={codeSent.isPending}
      passkeyPending={passkey.isPending}
      error={codeSent.error ?? (isCancelled(passkey.error) ? null : passkey.error)}
      cancelled={isCancelled(passkey.error)}
      onSendCode={() => codeSent.mutate()}
      onPasskey={() => {
        // The request waiting in the autofill ends first: one passkey request at a time.
        cancelPasskeyAutofill();
        passkey.mutate();
      }}
    />
  );
}

/** The person closed the browser's passkey dialog (or it timed out): said plainly, not as a failure. */
const isCancelled = (err: unknown) => err instanceof Error && err.name === 'NotAllowedError';

/**
 * WebAuthn conditional UI: while the sign-in form shows, a passkey request waits in the email
 * field's autofill; picking a passkey there signs in. Browsers without it get the button only.
 */
function usePasskeyAutofill(active: boolean, onSignedIn: () => void) {
  // The latest callback, without restarting the waiting request on every render.
  const signedIn = useRef(onSignedIn);
  useEffect(() => {
    signedIn.current = onSignedIn;
  }, [onSignedIn]);
  useEffect(() => {
    if (!active) return;
    let live = true;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || !live) return;
      try {
        await passkeySignIn({ autofill: true });
        if (live) signedIn.current();
      } catch {
        // Cancelled (another way was chosen, the form left) or refused: the buttons remain.
      }
    })();
    return () => {
      live = false;
      cancelPasskeyAutofill();
    };
  }, [active]);
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
  cancelled,
  onSendCode,
  onPasskey,
}: {
  email: string;
  setEmail: (email: string) => void;
  sending: boolean;
  passkeyPending: boolean;
  error: Error | null;
  cancelled: boolean;
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
      <button type="button" disabled={passkeyPending} onClick={onPasskey} className={`${primaryClass} w-full`}>
        {passkeyPending ? 'Waiting for the passkey…' : 'Sign in with a passkey'}
      </button>
      {cancelled ? (
        <p role="status" className="text-sm text-slate-700">
          No passkey was chosen. Try again, or use a code sent by email.
        </p>
      ) : null}
      <p className="text-sm text-slate-700">No passkey on this device? We can email you a code.</p>
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
      <button type="submit" disabled={sending} className={plainClass}>
        {sending ? 'Sending…' : 'Email me a code'}
      </button>
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

export function Resend({ sentAt, resending, onResend }: { sentAt: number; resending: boolean; onResend: () => void }) {
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
