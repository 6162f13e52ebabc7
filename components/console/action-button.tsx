'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import type { ActionResult } from '@/app/console/_lib/session';

// A button that runs one server action (already bound to its arguments) through react-query,
// then refreshes the server-rendered page around it, so the result shows without a reload.
export function ActionButton({
  action,
  label,
  pendingLabel,
  tone = 'primary',
  confirm,
  done,
}: {
  action: () => Promise<ActionResult<unknown>>;
  label: string;
  pendingLabel?: string;
  tone?: 'primary' | 'danger' | 'plain';
  confirm?: string;
  done?: string;
}) {
  const router = useRouter();
  const mutation = useMutation({
    mutationFn: async () => {
      const result = await action();
      if (!result.ok) throw new Error(result.error);
      return result;
    },
    onSuccess: () => router.refresh(),
  });
  const colours =
    tone === 'danger'
      ? 'bg-red-700 text-white hover:bg-red-800'
      : tone === 'plain'
        ? 'border border-slate-400 bg-white text-slate-900 hover:bg-slate-100'
        : 'bg-blue-700 text-white hover:bg-blue-800';
  return (
    <span className="inline-flex flex-col gap-1">
      <button
        type="button"
        disabled={mutation.isPending}
        onClick={() => {
          if (confirm && !window.confirm(confirm)) return;
          mutation.mutate();
        }}
        className={`rounded px-3 py-1.5 text-sm font-medium disabled:opacity-60 ${colours}`}
      >
        {mutation.isPending ? (pendingLabel ?? `${label}…`) : label}
      </button>
      {mutation.isError ? (
        <span role="alert" className="text-sm text-red-800">
          {mutation.error.message}
        </span>
      ) : null}
      {mutation.isSuccess && done ? (
        <span role="status" className="text-sm text-emerald-800">
          {done}
        </span>
      ) : null}
    </span>
  );
}
