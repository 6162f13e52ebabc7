'use client';
import { useActionState } from 'react';
import { signInAction } from '@/app/console/_lib/actions';

const inputClass = 'mt-1 w-full rounded border border-slate-400 px-3 py-2';

function Field(props: { name: string; label: string; type: string; autoComplete: string; hint?: string }) {
  return (
    <div>
      <label htmlFor={props.name} className="block text-sm font-medium">
        {props.label}
      </label>
      {props.hint ? (
        <p id={`${props.name}-hint`} className="text-sm text-slate-700">
          {props.hint}
        </p>
      ) : null}
      <input
        id={props.name}
        name={props.name}
        type={props.type}
        autoComplete={props.autoComplete}
        aria-describedby={props.hint ? `${props.name}-hint` : undefined}
        required
        className={inputClass}
      />
    </div>
  );
}

// Two steps for an account with a second factor: email and password, then (with the challenge
// the first step returned, no session yet) the code of the authenticator app or a recovery code.
export function SignInForm() {
  const [state, formAction, pending] = useActionState(signInAction, {});
  const challenge = state?.challenge;
  return (
    <form action={formAction} className="space-y-4">
      {challenge ? (
        <>
          <input type="hidden" name="challenge" value={challenge} />
          <Field
            name="code"
            label="Code"
            type="text"
            autoComplete="one-time-code"
            hint="The 6-digit code of your authenticator app, or one of your recovery codes."
          />
        </>
      ) : (
        <>
          <Field name="email" label="Email" type="email" autoComplete="username" />
          <Field name="password" label="Password" type="password" autoComplete="current-password" />
        </>
      )}
      {state?.error ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900">
          {state.error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded bg-blue-700 px-3 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? 'Signing in…' : challenge ? 'Verify code' : 'Sign in'}
      </button>
      {challenge ? (
        <p className="text-sm text-slate-700">
          <a href="/console/sign-in" className="underline">
            Start again with your password
          </a>
        </p>
      ) : null}
    </form>
  );
}
