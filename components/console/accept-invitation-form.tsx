'use client';
import { useActionState } from 'react';
import { acceptInvitationAction } from '@/app/console/_lib/actions';

const inputClass = 'mt-1 w-full rounded border border-slate-400 px-3 py-2';

/** The new member's own password, typed twice; the account exists once this succeeds. */
export function AcceptInvitationForm({ token }: { token: string }) {
  const [state, formAction, pending] = useActionState(acceptInvitationAction, {});
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      <div>
        <label htmlFor="new-password" className="block text-sm font-medium">
          New password
        </label>
        <input
          id="new-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="confirm-password" className="block text-sm font-medium">
          Password again
        </label>
        <input
          id="confirm-password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          className={inputClass}
        />
      </div>
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
        {pending ? 'Creating your account…' : 'Create my account'}
      </button>
    </form>
  );
}
