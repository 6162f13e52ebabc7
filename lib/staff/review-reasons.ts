import { DomainError } from '../core/errors';

// Why a reviewer approved or rejected a KYC/KYB verification: a code a report can count, and a
// note a person reads later on the customer's timeline. A rejection, and any decision coded
// OTHER, must say in the note what was wrong (or seen), so no decision is left unexplained.
export const APPROVE_REASONS = {
  DOCUMENTS_VERIFIED: 'Documents match the details',
  VERIFIED_BY_OTHER_MEANS: 'Verified by other means (call, registry)',
} as const;
export const REJECT_REASONS = {
  DOCUMENT_UNREADABLE: 'A document is unreadable',
  DOCUMENT_EXPIRED: 'A document has expired',
  DETAILS_MISMATCH: 'Details do not match the documents',
  OWNERSHIP_UNCLEAR: 'Ownership or control is unclear',
  SANCTIONS_OR_PEP: 'Sanctions or politically exposed person match',
  HIGH_RISK: 'Risk above the platform’s appetite',
  SUSPECTED_FRAUD: 'Suspected fraud',
} as const;
export const REVIEW_REASON_CODES: [string, ...string[]] = [
  'OTHER',
  ...Object.keys(APPROVE_REASONS),
  ...Object.keys(REJECT_REASONS),
];

export interface ReviewReason {
  reasonCode: string;
  note: string;
}

export function checkReviewReason(decision: 'APPROVED' | 'REJECTED', r: ReviewReason): ReviewReason {
  const note = r.note.trim();
  const allowed = decision === 'APPROVED' ? APPROVE_REASONS : REJECT_REASONS;
  const errors: { field: string; message: string }[] = [];
  if (r.reasonCode !== 'OTHER' && !(r.reasonCode in allowed))
    errors.push({
      field: 'reasonCode',
      message: `${r.reasonCode} is not a reason to ${decision === 'APPROVED' ? 'approve' : 'reject'}`,
    });
  if ((decision === 'REJECTED' || r.reasonCode === 'OTHER') && !note)
    errors.push({ field: 'note', message: 'Say in a note what was wrong or what you saw' });
  if (note.length > 1000) errors.push({ field: 'note', message: 'A note of at most 1000 characters' });
  if (errors.length) throw new DomainError('INVALID_INPUT', errors.map((e) => e.message).join('; '), { errors });
  return { reasonCode: r.reasonCode, note };
}
