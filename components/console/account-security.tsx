'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { changePasswordAction, signOutEverywhereAction } from '@/app/console/_lib/actions';

const inputClass = 'mt-1 w-full max-w-sm rounded border border-slate-400 px-3 py-2';
const button = 'rounded bg-blue-700 px-3 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60';

function Field(props: { id: string; name: string; label: string; autoComplete: string; numeric?: boolean }) {
  return (
    <div>
      <label htmlFor={props.id} className="block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={props.id}
        name={props.name}
        type={props.numeric ? 'text' : 'password'}
        inputMode={props.numeric ? 'numeric' : undefined}
        autoComplete={props.autoComplete}
        required
        className={inputClass}
      />
    </div>
  );
}

// The member's own password change: the current password, a current code of the second factor
// (when it is on) and the new password twice. Other sessions end; this one stays signed in.
export function ChangePasswordForm({ needsCode }: { needsCode: boolean }) {
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const get = (name: string) => String(data.get(name) ?? '');
        setDone(false);
        if (get('newPassword') !== get('confirm')) return setError('The two new passwords differ.');
        setPending(true);
        void changePasswordAction({
          currentPassword: get('currentPassword'),
          code: get('code'),
          newPassword: get('newPassword'),
        }).then((r) => {
          setPending(false);
          if (!r.ok) return setError(r.fields?.[0]?.message ?? r.error);
          setError('');
          setDone(true);
          form.reset();
        });
      }}
    >
      <Field id="current-password" name="currentPassword" label="Current password" autoComplete="current-password" />
      {needsCode ? (
        <Field
          id="password-code"
          name="code"
          label="Code of your authenticator app"
          autoComplete="one-time-code"
          numeric
        />
      ) : null}
      <Field
        id="new-password"
        name="newPassword"
        label="New password (12 characters or more)"
        autoComplete="new-password"
      />
      <Field id="confirm-password" name="confirm" label="New password again" autoComplete="new-password" />
      {error ? (
        <p role="alert" className="text-sm text-red-900">
          {error}
        </p>
      ) : null}
      {done ? (
        <p role="status" className="font-medium">
          Password changed. Your other sessions are signed out; this one stays signed in.
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={button}>
        Change password
      </button>
    </form>
  );
}

/** Ends every session of the account, this one included (asks first). */
export function SignOutEverywhere() {
  const router = useRouter();
  const [error, setError] = useState('');
  return (
    <div className="space-y-2">
      <button
        type="button"
        className="rounded border border-red-700 px-3 py-2 font-medium text-red-800 hover:bg-red-50"
        onClick={() => {
          if (!window.confirm('Sign out of the console on every device, this one included?')) return;
          void signOutEverywhereAction().then((r) => {
            // On success the action redirects to sign-in; a refusal lands here.
            if (r && !r.ok) setError(r.error);
            else router.push('/console/sign-in');
          });
        }}
      >
        Sign out everywhere
      </button>
      {error ? (
        <p role="alert" className="text-sm text-red-900">
          {error}
        </p>
      ) : null}
    </div>
  );
}
