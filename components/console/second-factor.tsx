'use client';
import { useRouter } from 'next/navigation';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import {
  confirmSecondFactorAction,
  disableSecondFactorAction,
  regenerateRecoveryCodesAction,
  startSecondFactorAction,
} from '@/app/console/_lib/actions';

const button = 'rounded bg-blue-700 px-3 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60';

/** The otpauth:// URI as an SVG QR code drawn by the qrcode library (no image request). */
function Qr({ value }: { value: string }) {
  const [svg, setSvg] = useState('');
  useEffect(() => {
    let live = true;
    void QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((s) => {
      if (live) setSvg(s);
    });
    return () => {
      live = false;
    };
  }, [value]);
  return (
    <div
      role="img"
      aria-label="QR code to scan with an authenticator app"
      className="h-48 w-48 max-w-full"
      // The library's own SVG markup (paths only) for a value of ours; nothing a user wrote runs here.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}

/** A code field with its submit button; `onCode` answers an error message or null. */
function CodeForm(props: {
  id?: string;
  label: string;
  submit: string;
  onCode: (code: string) => Promise<string | null>;
}) {
  const id = props.id ?? 'factor-code';
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const code = String(new FormData(e.currentTarget).get('code') ?? '');
        setPending(true);
        void props.onCode(code).then((err) => {
          setPending(false);
          setError(err ?? '');
        });
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={id}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        required
        className="w-full max-w-xs rounded border border-slate-400 px-3 py-2"
      />
      {error ? (
        <p role="alert" className="text-sm text-red-900">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={button}>
        {props.submit}
      </button>
    </form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-2">
      <p role="status" className="font-medium">
        The second factor is on. Keep these recovery codes somewhere safe: each signs you in once if you lose your
        phone, and they are not shown again.
      </p>
      <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </div>
  );
}

// Setting up the TOTP second factor: a candidate secret (QR code and text), kept only once a
// current code for it is typed; then the recovery codes, shown this once.
export function SecondFactorSetup() {
  const [candidate, setCandidate] = useState<{ uri: string; secret: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState('');
  if (codes) return <RecoveryCodes codes={codes} />;
  if (!candidate)
    return (
      <div className="space-y-2">
        <button
          type="button"
          className={button}
          onClick={() => void startSecondFactorAction().then((r) => (r.ok ? setCandidate(r.value) : setError(r.error)))}
        >
          Set up the second factor
        </button>
        {error ? <p role="alert">{error}</p> : null}
      </div>
    );
  return (
    <div className="space-y-3">
      <p>Scan this with an authenticator app, or type the secret into it.</p>
      <Qr value={candidate.uri} />
      <p className="text-sm">
        Secret:{' '}
        <code data-testid="totp-secret" className="font-mono break-all">
          {candidate.secret}
        </code>
      </p>
      <CodeForm
        label="The code the app shows now"
        submit="Turn on"
        onCode={async (code) => {
          const r = await confirmSecondFactorAction(code);
          if (!r.ok) return r.error;
          setCodes(r.value.recoveryCodes);
          return null;
        }}
      />
    </div>
  );
}

/** Turning one's own factor off: a current code (or a recovery code) is needed. */
export function SecondFactorDisable() {
  const router = useRouter();
  return (
    <CodeForm
      label="A current code (or a recovery code) to turn it off"
      submit="Turn off"
      onCode={async (code) => {
        const r = await disableSecondFactorAction(code);
        if (!r.ok) return r.error;
        router.refresh();
        return null;
      }}
    />
  );
}

/** New recovery codes: a current code of the app (not a recovery code); shown this once. */
export function RecoveryCodesRegenerate() {
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes)
    return (
      <div className="space-y-2">
        <p role="status" className="font-medium">
          New recovery codes. The earlier ones no longer work. Keep these somewhere safe: they are not shown again.
        </p>
        <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Recovery codes">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </div>
    );
  return (
    <CodeForm
      id="recovery-code"
      label="A current code of your authenticator app to get new recovery codes"
      submit="New recovery codes"
      onCode={async (code) => {
        const r = await regenerateRecoveryCodesAction(code);
        if (!r.ok) return r.error;
        setCodes(r.value.recoveryCodes);
        return null;
      }}
    />
  );
}
