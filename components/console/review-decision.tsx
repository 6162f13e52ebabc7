'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { decideReviewAction } from '@/app/console/_lib/actions';
import { APPROVE_REASONS, REJECT_REASONS } from '@/lib/staff/review-reasons';

// A KYC/KYB reviewer's decision: approve or reject, each with a reason code and a note (required
// to reject), both recorded on the customer's timeline. Rejecting asks for confirmation first.
const input = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5 text-sm';

export function ReviewDecision({ verificationId, subject }: { verificationId: string; subject: string }) {
  const router = useRouter();
  const [decision, setDecision] = useState<'APPROVED' | 'REJECTED'>('APPROVED');
  const reasons = decision === 'APPROVED' ? APPROVE_REASONS : REJECT_REASONS;
  const m = useMutation({
    mutationFn: async (f: { reasonCode: string; note: string }) => {
      const r = await decideReviewAction(verificationId, decision, f.reasonCode, f.note);
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    onSuccess: () => router.refresh(),
  });
  const id = (k: string) => `review-${verificationId}-${k}`;
  return (
    <form
      className="w-full max-w-md space-y-2 rounded border border-slate-200 p-3 text-sm"
      aria-label={`Decide the review of ${subject}`}
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const reasonCode = String(f.get('reasonCode'));
        const note = String(f.get('note') ?? '');
        if (decision === 'REJECTED' && !window.confirm(`Reject ${subject}? The customer will be REJECTED.`)) return;
        m.mutate({ reasonCode, note });
      }}
    >
      <fieldset>
        <legend className="font-medium">Decision</legend>
        {(['APPROVED', 'REJECTED'] as const).map((d) => (
          <label key={d} className="mr-4 inline-flex items-center gap-1">
            <input type="radio" name="decision" checked={decision === d} onChange={() => setDecision(d)} />
            {d === 'APPROVED' ? 'Approve' : 'Reject'}
          </label>
        ))}
      </fieldset>
      <div>
        <label htmlFor={id('reason')} className="block font-medium">
          Reason
        </label>
        <select id={id('reason')} name="reasonCode" key={decision} className={input}>
          {Object.entries(reasons).map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
          <option value="OTHER">Other (say in the note)</option>
        </select>
      </div>
      <div>
        <label htmlFor={id('note')} className="block font-medium">
          Note {decision === 'REJECTED' ? '(required)' : '(optional)'}
        </label>
        <textarea id={id('note')} name="note" rows={2} maxLength={1000} className={input} />
      </div>
      <button
        type="submit"
        disabled={m.isPending || m.isSuccess}
        className={`rounded px-4 py-1.5 font-medium text-white disabled:opacity-60 ${
          decision === 'APPROVED' ? 'bg-blue-700 hover:bg-blue-800' : 'bg-red-700 hover:bg-red-800'
        }`}
      >
        {m.isPending ? 'Saving…' : decision === 'APPROVED' ? 'Approve' : 'Reject'}
      </button>
      {m.error ? (
        <p role="alert" className="text-red-800">
          {m.error.message}
        </p>
      ) : null}
      {m.isSuccess ? (
        <p role="status" className="text-emerald-800">
          Decided: {m.data.verificationStatus}
        </p>
      ) : null}
    </form>
  );
}
