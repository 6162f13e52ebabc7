'use client';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { refundActionAction } from '@/app/console/_lib/actions';
import { ReasonField } from './reason-field';

// What staff can do about a refund over the rail that did not go through (lib/payments/
// rail-refund-ops.ts): each action opens a confirmation naming the amount and currency (and, to
// record a refund made outside Corridor, asks why); the confirmed click carries its own
// idempotency key, so a repeated request applies once. The page reloads with the new state.
// HAND_TO_RAIL: a payment held because production applies no sandbox script (lib/payments/script-hold-ops.ts).
type Action = 'RESEND' | 'RECORD_OUTSIDE' | 'CLOSE_REVERSED' | 'RECORD_PAYER_OWES' | 'TAKE_BACK' | 'HAND_TO_RAIL';

const LABELS: Record<Action, string> = {
  RESEND: 'Send the refund again',
  RECORD_OUTSIDE: 'Record as refunded outside Corridor',
  CLOSE_REVERSED: 'Close: payer was repaid by the reversal',
  RECORD_PAYER_OWES: 'Record what the payer owes',
  TAKE_BACK: 'Take back the reversed credit',
  HAND_TO_RAIL: 'Hand to the rail',
};

/** The actions that keep a reason, and what it asks. */
const REASONS: Partial<Record<Action, string>> = {
  RECORD_OUTSIDE: 'How was the payer refunded? (kept on the transaction and in the audit trail)',
  TAKE_BACK: 'Why take it back? (kept on the transaction and in the audit trail)',
};

function question(action: Action, amount: string, nextReference: string, owes: string | null) {
  switch (action) {
    case 'RESEND':
      return `Send ${amount} back to the payer's bank again, as a new instruction to the rail under ${nextReference}?`;
    case 'RECORD_OUTSIDE':
      return `Record that the payer was refunded ${amount} outside Corridor? The refund becomes COMPLETED and the money leaves clearing; nothing is sent.`;
    case 'CLOSE_REVERSED':
      return `Close the refund of ${amount}: the payer's bank reversed the pull, so the payer already has it back. Nothing is sent.${owes ? ` ${owes}` : ''}`;
    case 'TAKE_BACK':
      return `The payer's bank reversed this pull of ${amount} after it was credited. ${owes ?? ''}`;
    case 'HAND_TO_RAIL':
      return `Hand this payment of ${amount} to the payment rail as a real instruction, dropping its sandbox script? A connected rail carries it; with none connected it waits, offered again later.`;
    case 'RECORD_PAYER_OWES':
      return `The payer's bank reversed the pull after its money had gone on. ${owes ?? ''} Nothing is sent; recovering it from the payer happens outside Corridor.`;
  }
}

export function RailRefundActions({
  transactionId,
  attempt,
  actions,
  amount,
  nextReference,
  payerOwes,
}: {
  transactionId: string;
  attempt: number;
  actions: Action[];
  /** The refund's amount with its currency, in major units. */
  amount: string;
  nextReference: string;
  /** What the payer owes after a reversal action, in words with the amount (null: no such action). */
  payerOwes: string | null;
}) {
  const router = useRouter();
  const [open, setOpen] = useState<Action | null>(null);
  const [reason, setReason] = useState('');
  const run = useMutation({
    mutationFn: async (action: Action) => {
      const r = await refundActionAction(action, transactionId, attempt, crypto.randomUUID(), reason);
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    onSuccess: () => {
      setOpen(null);
      router.refresh();
    },
  });
  const busy = run.isPending;
  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-2">
        {actions.map((a) => (
          <button
            key={a}
            type="button"
            onClick={() => {
              run.reset();
              setOpen(a);
            }}
            disabled={busy}
            aria-expanded={open === a}
            className="rounded border border-slate-400 bg-white px-3 py-1.5 text-left text-sm font-medium text-slate-900 hover:bg-slate-100 disabled:opacity-60"
          >
            {LABELS[a]}
          </button>
        ))}
      </div>
      {open ? (
        <Confirm
          action={open}
          text={question(open, amount, nextReference, payerOwes)}
          reason={reason}
          setReason={setReason}
          busy={busy}
          error={run.isError ? run.error.message : null}
          onConfirm={() => run.mutate(open)}
          onCancel={() => setOpen(null)}
        />
      ) : null}
    </div>
  );
}

function Confirm({
  action,
  text,
  reason,
  setReason,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  action: Action;
  text: string;
  reason: string;
  setReason: (r: string) => void;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="mt-3 max-w-xl rounded border border-amber-700 p-3 text-sm"
      aria-label={`Confirm: ${LABELS[action]}`}
      onSubmit={(e) => {
        e.preventDefault();
        onConfirm();
      }}
    >
      <p>{text}</p>
      {REASONS[action] ? (
        <ReasonField
          id={`rail-reason-${action}`}
          label={REASONS[action]}
          value={reason}
          onChange={setReason}
          rows={2}
          className="mt-2"
        />
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="submit"
          disabled={busy || (!!REASONS[action] && !reason.trim())}
          className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {busy ? 'Working…' : `Confirm: ${LABELS[action].toLowerCase()}`}
        </button>
        <button
          type="button"
          onClick={onCancel}
          disabled={busy}
          className="rounded border border-slate-400 bg-white px-3 py-1.5 font-medium hover:bg-slate-100"
        >
          Cancel
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-red-800">
          {error}
        </p>
      ) : null}
    </form>
  );
}
