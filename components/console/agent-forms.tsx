'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { regenerateDeviceCodeAction } from '@/app/console/_lib/actions';
import { LocalTime } from '../time';

// An agent's device-code button (operators): a new device code is shown once, here only. The
// policy form is ./policy-form.tsx.
const primary = 'rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60';

export function DeviceCodeButton({ agentId }: { agentId: string }) {
  const router = useRouter();
  const [issued, setIssued] = useState<{ code: string; expiresAt: string } | null>(null);
  const m = useMutation({
    mutationFn: async () => {
      const r = await regenerateDeviceCodeAction(agentId);
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    onSuccess: (v) => {
      setIssued(v);
      router.refresh();
    },
  });
  return (
    <div>
      <button type="button" disabled={m.isPending} onClick={() => m.mutate()} className={primary}>
        {m.isPending ? 'Generating…' : 'Generate a new device code'}
      </button>
      {m.error ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {m.error.message}
        </p>
      ) : null}
      {issued ? (
        <div
          role="status"
          className="mt-3 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950"
        >
          <p className="font-medium">New device code, shown only now — hand it to the agent software:</p>
          <p className="mt-1 font-mono text-base break-all" data-testid="device-code">
            {issued.code}
          </p>
          <p className="mt-1">
            Valid until <LocalTime value={issued.expiresAt} />; earlier codes no longer work.
          </p>
        </div>
      ) : null}
    </div>
  );
}
