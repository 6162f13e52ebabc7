import { now } from '../core/clock';
import { db } from '../core/db';
import { DomainError, invalidInput, notFound } from '../core/errors';
import { effect } from '../core/idempotency';
import * as ledger from '../ledger/service';
import { eventWrites } from '../events/outbox';
import { jobWrite } from '../jobs/queue';
import * as txRepo from './transactions/repository';
import { toTransaction } from './transactions/presenter';
import { refundAmount, refundPosting } from './postings';
import { REFUND_HELD_BY_REVERSAL, REFUND_JOB, REFUND_PENDING, REFUND_RESENDABLE } from './rail';
import { refundReferenceOf, refundsOverRail } from './rail-collect';

// Staff resolve a refund over the rail that did not go through (rail-refund.ts): it FAILED at the
// rail, the payer's bank RETURNED it after it completed, or it is HELD because the payer's bank
// reversed the pull that funded the quote (the payer has the money back). Each action is one
// ledger step whose required guard names the state staff saw (railStatus and the refund's
// attempt), so of double clicks, concurrent staff or retries exactly one applies; the others are
// refused with INVALID_STATE_TRANSITION and change nothing.
type Row = txRepo.TransactionRow;

export type RailRefundAction = 'RESEND' | 'RECORD_OUTSIDE' | 'CLOSE_REVERSED';

/** After staff recorded the refund as made outside Corridor (the money left clearing). */
export const REFUND_SETTLED_OUTSIDE = 'REFUND_SETTLED_OUTSIDE';
/** After staff closed a held refund: the reversal of the pull had repaid the payer. */
export const REFUND_CLOSED_REVERSED = 'REFUND_CLOSED_REVERSED';

const refundStatusOf = (row: Row) => (row.refund as { status?: string } | null)?.status;

/**
 * The actions staff may take on this transaction now (none when its refund needs none). Sending
 * again is refused once the payer's bank reversed the pull: the payer would be repaid twice.
 */
export function refundActionsFor(row: Row): RailRefundAction[] {
  if (row.status !== 'FAILED' || !refundsOverRail(row)) return [];
  const rail = row.railStatus ?? '';
  if (row.pullReturnedAt) {
    // A refund that completed before the reversal is not held: nothing is left in clearing.
    if (!REFUND_HELD_BY_REVERSAL.includes(rail) || refundStatusOf(row) === 'COMPLETED') return [];
    return ['RECORD_OUTSIDE', 'CLOSE_REVERSED'];
  }
  return REFUND_RESENDABLE.includes(rail) ? ['RESEND', 'RECORD_OUTSIDE'] : [];
}

/** The money a refund action concerns: what the refund gives back, in the sending currency. */
export const refundMoneyOf = (row: Row) => ({ amount: refundAmount(row), currency: row.sentCurrency ?? '' });

/** What an action leaves behind, for the console and the audit entry. */
export interface RefundActionResult {
  transactionId: string;
  railStatus: string;
  refundStatus: string;
  attempt: number;
  /** The rail reference of the attempt now current (a re-send's new one). */
  reference: string;
  /** What the refund gives back, minor units as a decimal string (the audit entry is JSON). */
  amount: string;
  currency: string;
}

const stale = (id: string, action: RailRefundAction) =>
  new DomainError(
    'INVALID_STATE_TRANSITION',
    `The refund of ${id} is no longer in a state where this can be done (${action}): it was resolved or sent again meanwhile; reload the page`,
  );

/** Reads the transaction and checks the action applies to it now (the step's guard decides again). */
async function target(platformId: string, id: string, action: RailRefundAction, attempt: number): Promise<Row> {
  const row = await txRepo.findById(platformId, id, db());
  if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
  if (!refundActionsFor(row).includes(action) || row.refundAttempt !== attempt) throw stale(id, action);
  return row;
}

/** The required guard: the state staff acted on, unchanged. */
const guardOf = (row: Row, set: Record<string, unknown>) => ({
  table: 'Transaction' as const,
  where: {
    id: row.id,
    status: 'FAILED',
    railStatus: row.railStatus,
    refundAttempt: row.refundAttempt,
    // Sending again must not race a reversal of the pull arriving (rail-collect.ts).
    ...(row.pullReturnedAt ? {} : { pullReturnedAt: null }),
  },
  set,
  required: true,
});

const events = (row: Row, suffix: 'REFUND_PENDING' | 'REFUND_COMPLETED', at: Date) =>
  eventWrites(row.platformId, [{ type: `OUTGOING_PAYMENT.${suffix}`, data: toTransaction(row) }], at);

async function write(row: Row, step: ledger.Step, action: RailRefundAction, done: Row): Promise<RefundActionResult> {
  return effect(async (tx) => {
    if (!(await ledger.runStep(step, tx))) throw stale(row.id, action);
    return {
      transactionId: row.id,
      railStatus: done.railStatus ?? '',
      refundStatus: refundStatusOf(done) ?? '',
      attempt: done.refundAttempt,
      reference: refundReferenceOf(row.id, done.refundAttempt),
      amount: String(refundAmount(row)),
      currency: row.sentCurrency ?? '',
    };
  });
}

/**
 * Sends the refund to the rail again, under the next attempt's reference (`<id>:refund:<n>`; the
 * rail answers a reference it has seen with its first answer). The refund is PENDING again and
 * the 'payment.refund' job hands it over (waiting visibly when no rail is connected, as the first
 * attempt did). A refund the payer's bank RETURNED had been posted as gone: its money is back in
 * clearing (PAYMENT_REFUND_RETURN), for the new attempt's completion to post it out again.
 */
export async function resendRefund(platformId: string, id: string, attempt: number): Promise<RefundActionResult> {
  const row = await target(platformId, id, 'RESEND', attempt);
  const at = now();
  const next = row.refundAttempt + 1;
  // PENDING again, settled no more (a RETURNED refund had settled).
  const refund: Record<string, string> = Object.fromEntries(
    Object.entries({ ...(row.refund as Record<string, string>), status: 'PENDING' }).filter(([k]) => k !== 'settledAt'),
  );
  const data = {
    refund,
    refundAttempt: next,
    railStatus: REFUND_PENDING,
    railNote: `sent again by staff (attempt ${next}, reference ${refundReferenceOf(id, next)}); being handed to the rail`,
    updatedAt: at,
  };
  const done: Row = { ...row, ...data };
  const step: ledger.Step = {
    moves: [guardOf(row, data)],
    writes: [
      jobWrite({ platformId, kind: REFUND_JOB, payload: { transactionId: id }, runAt: at }),
      ...events(done, 'REFUND_PENDING', at),
    ],
    posting: row.railStatus === 'REFUND_RETURNED' ? refundPosting(row, { back: true }) : null,
    announce: [],
  };
  return write(row, step, 'RESEND', done);
}

const checkReason = (reason: string) => {
  const why = reason.trim();
  if (!why || why.length > 1000)
    throw invalidInput('A reason of 1 to 1000 characters is required', [
      { field: 'reason', message: 'A reason of 1 to 1000 characters is required' },
    ]);
  return why;
};

/**
 * Records that the payer was refunded outside Corridor (a wire, a cheque...): the refund
 * COMPLETED and its money leaves clearing with the posting the rail's COMPLETED makes
 * (PAYMENT_REFUND), announced as a completed refund. A refund the payer's bank RETURNED after it
 * completed was already posted as gone and announced COMPLETED; its money came back and left
 * again outside, so nothing is posted or announced again — only where it stands changes.
 */
export async function recordRefundedOutside(
  platformId: string,
  id: string,
  attempt: number,
  reason: string,
): Promise<RefundActionResult> {
  const why = checkReason(reason);
  const row = await target(platformId, id, 'RECORD_OUTSIDE', attempt);
  const at = now();
  const returned = row.railStatus === 'REFUND_RETURNED';
  const refund = returned
    ? (row.refund as object)
    : { ...(row.refund as object), status: 'COMPLETED', settledAt: at.toISOString() };
  const data = {
    refund,
    railStatus: REFUND_SETTLED_OUTSIDE,
    railNote: `recorded by staff as refunded outside Corridor: ${why}`,
    updatedAt: at,
  };
  const done: Row = { ...row, ...data };
  const step: ledger.Step = {
    moves: [guardOf(row, data)],
    writes: returned ? [] : events(done, 'REFUND_COMPLETED', at),
    posting: returned ? null : refundPosting(row),
    announce: [],
  };
  return write(row, step, 'RECORD_OUTSIDE', done);
}

/**
 * Closes a held refund: the payer's bank reversed the pull after it completed, so the payer has
 * the money back and nothing is sent. The amount in clearing went out with that reversal: it
 * leaves clearing for the payer's bank (PAYMENT_PULL_REVERSAL, the refund posting's legs), and
 * the refund COMPLETED. A payout that was RETURNED kept its fees; the reversal took them back from
 * us too, which is not posted here (railNote says so).
 */
export async function closeRepaidByReversal(
  platformId: string,
  id: string,
  attempt: number,
): Promise<RefundActionResult> {
  const row = await target(platformId, id, 'CLOSE_REVERSED', attempt);
  const at = now();
  const refund = { ...(row.refund as object), status: 'COMPLETED', settledAt: at.toISOString() };
  const feesKept = row.failureReason === 'PAYOUT_RETURNED';
  const data = {
    refund,
    railStatus: REFUND_CLOSED_REVERSED,
    railNote: `closed by staff: the payer was repaid by the reversal of the pull${
      feesKept
        ? '; the fees kept when the payout was returned went back with the reversal too and are not posted: review'
        : ''
    }`,
    updatedAt: at,
  };
  const done: Row = { ...row, ...data };
  const step: ledger.Step = {
    moves: [guardOf(row, data)],
    writes: events(done, 'REFUND_COMPLETED', at),
    posting: refundPosting(row, { kind: 'PAYMENT_PULL_REVERSAL' }),
    announce: [],
  };
  return write(row, step, 'CLOSE_REVERSED', done);
}
