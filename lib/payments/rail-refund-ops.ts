import { formatMajorInput } from '../core/amount-input';
import { now } from '../core/clock';
import { db } from '../core/db';
import { DomainError, invalidInput, notFound } from '../core/errors';
import { effect } from '../core/idempotency';
import * as ledger from '../ledger/service';
import { eventWrites } from '../events/outbox';
import { jobWrite } from '../jobs/queue';
import * as txRepo from './transactions/repository';
import { toTransaction } from './transactions/presenter';
import { amountsOf } from './plan';
import { pullReversalPosting, refundAmount, refundPosting } from './postings';
import { PULL_RETURNED, REFUND_HELD_BY_REVERSAL, REFUND_JOB, REFUND_PENDING, REFUND_RESENDABLE } from './rail';
import { refundReferenceOf, refundsOverRail } from './rail-collect';

// Staff resolve a refund over the rail that did not go through (rail-refund.ts): it FAILED at the
// rail, the payer's bank RETURNED it after it completed, or it is HELD because the payer's bank
// reversed the pull that funded the quote (the payer has the money back). And they record what a
// payer owes once their bank reversed a pull whose money had gone on: to the payee (the payment
// COMPLETED) or back to the payer in a refund that completed (the payer was repaid twice). Each action is one
// ledger step whose required guard names the state staff saw (railStatus and the refund's
// attempt), so of double clicks, concurrent staff or retries exactly one applies; the others are
// refused with INVALID_STATE_TRANSITION and change nothing.
type Row = txRepo.TransactionRow;

export type RailRefundAction = 'RESEND' | 'RECORD_OUTSIDE' | 'CLOSE_REVERSED' | 'RECORD_PAYER_OWES';

/** After staff recorded the refund as made outside Corridor (the money left clearing). */
export const REFUND_SETTLED_OUTSIDE = 'REFUND_SETTLED_OUTSIDE';
/** After staff closed a held refund: the reversal of the pull had repaid the payer. */
export const REFUND_CLOSED_REVERSED = 'REFUND_CLOSED_REVERSED';
/** After staff recorded a reversal of the pull whose money had gone on: the payer owes it. */
export const PULL_REVERSAL_RECORDED = 'PULL_REVERSAL_RECORDED';

const refundStatusOf = (row: Row) => (row.refund as { status?: string } | null)?.status;

/**
 * The actions staff may take on this transaction now (none when its refund needs none). Sending
 * again is refused once the payer's bank reversed the pull: the payer would be repaid twice.
 */
export function refundActionsFor(row: Row): RailRefundAction[] {
  if (!refundsOverRail(row)) return [];
  const rail = row.railStatus ?? '';
  if (row.pullReturnedAt) {
    // The payout was paid, or a refund completed before the reversal: the payer owes the money.
    if (rail === PULL_RETURNED && (row.status === 'COMPLETED' || refundStatusOf(row) === 'COMPLETED'))
      return ['RECORD_PAYER_OWES'];
    if (row.status !== 'FAILED') return [];
    // A refund the payer's bank returned, then the reversal: the payer has the money once.
    if (rail === 'REFUND_RETURNED') return ['CLOSE_REVERSED'];
    return REFUND_HELD_BY_REVERSAL.includes(rail) ? ['RECORD_OUTSIDE', 'CLOSE_REVERSED'] : [];
  }
  if (row.status !== 'FAILED') return [];
  return REFUND_RESENDABLE.includes(rail) ? ['RESEND', 'RECORD_OUTSIDE'] : [];
}

/**
 * What closing (CLOSE_REVERSED) or recording (RECORD_PAYER_OWES) the reversal of the pull posts,
 * and what the payer owes after it (negative: the part of an earlier debt it settles). The
 * reversal sent the payer's bank the whole amount pulled, unless it was posted already (recorded
 * before a later return of the payout brought money back for the payer). A refund still held
 * leaves clearing with it; a refund the payer's bank returned had been posted as gone, so its
 * money comes back in.
 */
export async function reversalEffect(row: Row, action: 'CLOSE_REVERSED' | 'RECORD_PAYER_OWES') {
  const posted = (await ledger.postedKinds(row.id, db())).has('PAYMENT_PULL_REVERSAL');
  const reversed = posted ? 0n : amountsOf(row).total;
  if (action === 'RECORD_PAYER_OWES') return pullReversalPosting(row, { fromClearing: 0n, toWorld: reversed });
  const returned = row.railStatus === 'REFUND_RETURNED';
  return pullReversalPosting(row, {
    fromClearing: returned ? 0n : refundAmount(row),
    toWorld: reversed - (returned ? refundAmount(row) : 0n),
  });
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
  /** What the payer owes after the action (minor units; negative: settled against an earlier debt). */
  payerOwes: string;
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
    status: row.status,
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

async function write(
  row: Row,
  step: ledger.Step,
  action: RailRefundAction,
  done: Row,
  owed = 0n,
): Promise<RefundActionResult> {
  return effect(async (tx) => {
    if (!(await ledger.runStep(step, tx))) throw stale(row.id, action);
    return {
      transactionId: row.id,
      railStatus: done.railStatus ?? '',
      refundStatus: refundStatusOf(done) ?? '',
      attempt: done.refundAttempt,
      reference: refundReferenceOf(row.id, done.refundAttempt),
      // Recording what the payer owes concerns that amount; the other actions, the refund's.
      amount: String(action === 'RECORD_PAYER_OWES' ? owed : refundAmount(row)),
      currency: row.sentCurrency ?? '',
      payerOwes: String(owed),
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

export const checkReason = (reason: string) => {
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
 * Closes a refund the reversal of the pull made needless: held (never sent), or returned by the
 * payer's bank after it completed. The payer has the money back from the reversal and nothing is
 * sent. The posting (reversalEffect) takes the held amount out of clearing to the payer's bank; a
 * payout that was returned kept its fees, which went back with the reversal too: the payer owes
 * them (PAYER_RECEIVABLE). A held refund COMPLETED; a returned one had completed already and is
 * not announced again.
 */
export async function closeRepaidByReversal(
  platformId: string,
  id: string,
  attempt: number,
): Promise<RefundActionResult> {
  const row = await target(platformId, id, 'CLOSE_REVERSED', attempt);
  const at = now();
  const returned = row.railStatus === 'REFUND_RETURNED';
  const refund = returned
    ? (row.refund as object)
    : { ...(row.refund as object), status: 'COMPLETED', settledAt: at.toISOString() };
  const { posting, owed } = await reversalEffect(row, 'CLOSE_REVERSED');
  const data = {
    refund,
    railStatus: REFUND_CLOSED_REVERSED,
    railNote: `closed by staff: the payer was repaid by the reversal of the pull${owedNote(owed, row)}`,
    updatedAt: at,
  };
  const done: Row = { ...row, ...data };
  const step: ledger.Step = {
    moves: [guardOf(row, data)],
    writes: returned ? [] : events(done, 'REFUND_COMPLETED', at),
    posting,
    announce: [],
  };
  return write(row, step, 'CLOSE_REVERSED', done, owed);
}

const owedNote = (owed: bigint, row: Row) => {
  const money = (v: bigint) => `${formatMajorInput(v, row.sentCurrency!)} ${row.sentCurrency}`;
  if (owed > 0n) return `; the payer owes ${money(owed)} (payer receivable)`;
  return owed < 0n ? `; ${money(-owed)} set against what the payer owes` : '';
};

/**
 * Records what the payer owes after their bank reversed the pull whose money had gone on — to the
 * payee, or to the payer in a refund that completed: the whole amount pulled leaves for the
 * payer's bank and the payer receivable holds it (PAYMENT_PULL_REVERSAL), for recovery from the
 * payer outside Corridor. Nothing is sent.
 */
export async function recordPayerOwes(platformId: string, id: string, attempt: number): Promise<RefundActionResult> {
  const row = await target(platformId, id, 'RECORD_PAYER_OWES', attempt);
  const at = now();
  const { posting, owed } = await reversalEffect(row, 'RECORD_PAYER_OWES');
  const data = {
    railStatus: PULL_REVERSAL_RECORDED,
    railNote: `the payer's bank reversed the pull after its money had gone on; recorded by staff${owedNote(owed, row)}`,
    updatedAt: at,
  };
  const done: Row = { ...row, ...data };
  const step: ledger.Step = { moves: [guardOf(row, data)], writes: [], posting, announce: [] };
  return write(row, step, 'RECORD_PAYER_OWES', done, owed);
}
