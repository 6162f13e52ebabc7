import { addSeconds, clockOf, now } from '../core/clock';
import { runAs } from '../core/context';
import * as platforms from '../platform/repository';
import { RAIL_SIGNATURE_HEADER, railEventOf } from './rail-http';
import { db, transaction, type Tx } from '../core/db';
import { log } from '../core/log';
import { enqueue, type JobHandler } from '../jobs/queue';
import * as txRepo from './transactions/repository';
import { planOf } from './plan';
import {
  NO_RAIL_CONNECTED,
  PULL_RETURNED,
  RAIL_FAILURE_REASONS,
  SUBMIT_JOB,
  retryDelaySeconds,
  UNCONNECTED_RECHECK_SECONDS,
  type RailEvent,
  type RailInstruction,
} from './rail';
import { paymentRail } from './scenarios';
import { completePayout, failPayout, returnStep } from './settlement';
import { overRail, refundedFailure, type Failure } from './steps';
import { applyRefundEvent } from './rail-refund';
import {
  applyFundingPullEvent,
  afterReversal,
  claimPullSubmission,
  PULL_SUBMITTING,
  COLLECTION_FAILED,
  type EventResult,
  fundingPullFor,
  isPullFunded,
  PULL_REFERENCE_SUFFIX,
  PULL_WAITING_FOR_RAIL,
  refundAttemptOf,
  refundsOverRail,
  transactionIdOf,
} from './rail-collect';
import { completePull, failPull } from './transfers/settlement';
import { externalRoute } from './routing';
import { isHeldScript } from './script-hold';

// The worker's side of a real payment rail (rail.ts): a payout that starts moving without a
// scripted outcome gets a 'payment.submit' job; the job hands the instruction to the rail and
// records its answer; the rail's events (its callbacks, app/rails/callbacks) then move the
// payment. Every move is a guarded state change, so a duplicate submit or event, or events in
// the wrong order, change nothing they should not.
// A quote funded by a direct pull collects its funds first (rail-collect.ts).
type Row = txRepo.TransactionRow;

/** A pull from an external account into an internal one (a /transfer-in in production). */
const isRailPull = (row: Row) =>
  row.type === 'INCOMING' && row.scenario === 'WAITING_FOR_RAIL' && !!row.externalAccountId;

/**
 * The instruction for a payment the rail carries: a payout to an external account (a quote's, or
 * a /transfer-out's) or a pull from one (a /transfer-in's: an ACH debit of the customer's bank).
 */
export async function instructionFor(row: Row): Promise<RailInstruction | null> {
  if (isRailPull(row)) {
    const route = await externalRoute(row.platformId, row.externalAccountId!, 'ACH', db());
    return {
      reference: row.id,
      kind: 'PULL',
      platformId: row.platformId,
      amount: String(row.receivedAmount ?? 0n),
      currency: row.receivedCurrency ?? route.currency,
      rail: row.paymentRail ?? 'ACH',
      account: {
        externalAccountId: route.externalAccountId,
        accountType: route.accountType,
        identifier: route.identifier,
      },
      description: row.description ?? null,
    };
  }
  const plan = row.plan ? planOf(row) : null;
  const route = plan?.route;
  if (row.type !== 'OUTGOING' || route?.kind !== 'EXTERNAL') return null;
  return {
    reference: row.id,
    kind: 'PAYOUT',
    platformId: row.platformId,
    amount: String(row.receivedAmount ?? 0n),
    currency: row.receivedCurrency ?? route.currency,
    rail: row.paymentRail ?? route.rail ?? null,
    account: {
      externalAccountId: route.externalAccountId,
      accountType: route.accountType,
      identifier: route.identifier,
    },
    description: row.description ?? null,
  };
}

/**
 * Writes where the payment stands with the rail, while it is still PROCESSING. `collected` (a
 * pull-funded quote only) says which instruction the note is about: an answer about the pull that
 * lands after the pull's completion must not overwrite where the payout stands.
 */
async function note(
  id: string,
  railStatus: string,
  railNote: string | null,
  tx: Tx,
  collected?: boolean,
): Promise<boolean> {
  const r = await tx.transaction.updateMany({
    where: {
      id,
      status: 'PROCESSING',
      ...(collected === undefined ? {} : { collectedAt: collected ? { not: null } : null }),
    },
    data: { railStatus, railNote, updatedAt: now() },
  });
  return r.count > 0;
}

/** Hands one payment to the rail and records the answer ('payment.submit'). */
export async function submitToRail(transactionId: string, attempt = 1): Promise<void> {
  const row = await txRepo.findByIdUnscoped(transactionId, db());
  if (!row || row.status !== 'PROCESSING') return; // settled, failed or cancelled meanwhile
  // Already accepted: its events decide now. SUBMITTING: a pull's submission that died before the
  // rail's answer was recorded, taken up again.
  if (row.railStatus && row.railStatus !== 'WAITING' && row.railStatus !== PULL_SUBMITTING) return;
  // Held for staff (a sandbox script production does not apply): WAITING too, but only a staff
  // action that replaces the script hands it over.
  if (isHeldScript(row)) return;
  // A quote funded by pulling from the payer's bank collects the money first: until the rail
  // reports the pull COMPLETED (applyFundingPullEvent), the instruction is the pull, never the payout.
  const phase = isPullFunded(row) ? { collected: row.collectedAt !== null } : null;
  const collecting = phase?.collected === false;
  // The pull is marked as being handed over first: a cancellation that got in before finds
  // nothing sent, one that comes after is refused until the pull has settled (rail-collect.ts).
  if (collecting && !(await transaction((tx) => claimPullSubmission(row.id, tx)))) return;
  const instruction = collecting ? await fundingPullFor(row) : await instructionFor(row);
  if (!instruction) {
    log().error(
      { transactionId },
      'payment has no rail instruction (not a payout to or pull from an external account)',
    );
    return;
  }
  const answer = await paymentRail.get().submit(instruction);
  await transaction(async (tx) => {
    switch (answer.outcome) {
      case 'ACCEPTED':
        await note(
          row.id,
          'ACCEPTED',
          answer.providerReference ? `rail reference ${answer.providerReference}` : null,
          tx,
          phase?.collected,
        );
        return;
      case 'REFUSED': {
        const fresh = await txRepo.findByIdUnscoped(row.id, tx);
        if (fresh?.status !== 'PROCESSING') return;
        if (collecting) {
          // The payer's bank cannot be debited: nothing was collected, nothing is paid out.
          if (await note(row.id, 'FAILED', `pull refused by the rail: ${answer.reason}`, tx, false))
            await failPayout(tx, { ...fresh, railStatus: 'FAILED' }, COLLECTION_FAILED);
          return;
        }
        await note(row.id, 'FAILED', `refused by the rail: ${answer.reason}`, tx);
        if (isRailPull(fresh)) await failPull(tx, { ...fresh, railStatus: 'FAILED' });
        else await failPayout(tx, { ...fresh, railStatus: 'FAILED' }, payoutFailure(fresh, 'QUOTE_EXECUTION_FAILED'));
        return;
      }
      case 'RETRY': {
        const wait = retryDelaySeconds(attempt, answer.afterSeconds);
        if (
          await note(
            row.id,
            'WAITING',
            `rail asked to retry${collecting ? ' the pull' : ''} (${answer.reason}); attempt ${attempt + 1} in ${wait} s`,
            tx,
            phase?.collected,
          )
        )
          await enqueue(tx, {
            platformId: row.platformId,
            kind: SUBMIT_JOB,
            payload: { transactionId: row.id, attempt: attempt + 1 },
            runAt: addSeconds(now(), wait),
          });
        return;
      }
      case 'UNCONNECTED':
        // Never pretend: the payout stays PROCESSING with the reason, and is offered again later
        // (a restart with a rail configured picks it up).
        if (
          await note(
            row.id,
            'WAITING',
            collecting ? PULL_WAITING_FOR_RAIL : answer.reason || NO_RAIL_CONNECTED,
            tx,
            phase?.collected,
          )
        )
          await enqueue(tx, {
            platformId: row.platformId,
            kind: SUBMIT_JOB,
            payload: { transactionId: row.id, attempt },
            runAt: addSeconds(now(), UNCONNECTED_RECHECK_SECONDS),
          });
        return;
    }
  });
}

export const submitJob: JobHandler = async (payload) => {
  const p = payload as { transactionId: string; attempt?: number };
  await submitToRail(p.transactionId, p.attempt ?? 1);
};

export type { EventResult };

/**
 * Applies one rail event. Duplicates change nothing (the guarded moves refuse a second time);
 * out of order: RETURNED before COMPLETED completes then returns; COMPLETED or FAILED after the
 * payment has moved on (a late duplicate, or after RETURNED) is ignored; RETURNED after COMPLETED
 * (a bank returning a payout days later) sends the money back.
 */
export async function applyRailEvent(event: RailEvent): Promise<EventResult> {
  const row = await txRepo.findByIdUnscoped(transactionIdOf(event.reference), db());
  if (event.reference.endsWith(PULL_REFERENCE_SUFFIX))
    return row && isPullFunded(row) ? applyFundingPullEvent(row, event) : 'UNKNOWN_REFERENCE';
  const refundAttempt = refundAttemptOf(event.reference);
  if (refundAttempt !== null)
    return row && isPullFunded(row) ? applyRefundEvent(row, event, refundAttempt) : 'UNKNOWN_REFERENCE';
  if (row && isRailPull(row)) return applyPullEvent(row, event);
  if (!row || row.type !== 'OUTGOING' || !row.plan || planOf(row).route.kind !== 'EXTERNAL') return 'UNKNOWN_REFERENCE';
  // A sandbox payment: its scripted events only (a production transfer is WAITING_FOR_RAIL).
  if (row.scenario !== null && row.scenario !== 'WAITING_FOR_RAIL') return 'IGNORED';
  // The payout of a pull-funded quote is never handed over before its pull completed: an event
  // about it before then is not about anything Corridor sent.
  if (isPullFunded(row) && !row.collectedAt) return 'IGNORED';
  if (event.status === 'RETURNED') return applyReturn(row);
  if (row.status !== 'PROCESSING') return 'IGNORED';
  return transaction(async (tx): Promise<EventResult> => {
    const fresh = await txRepo.findByIdUnscoped(row.id, tx);
    if (fresh?.status !== 'PROCESSING') return 'IGNORED';
    if (event.status === 'COMPLETED') {
      const done = await completePayout(tx, fresh);
      if (!done) return 'IGNORED';
      await tx.transaction.update({ where: { id: row.id }, data: await afterReversal(tx, row.id, 'COMPLETED') });
      return 'APPLIED';
    }
    const failed = await failPayout(tx, fresh, payoutFailure(fresh, failureReasonOf(event)));
    if (!failed) return 'IGNORED';
    // A refund over the rail has a railStatus of its own (REFUND_PENDING, rail-refund.ts).
    if (!refundsOverRail(fresh))
      await tx.transaction.update({ where: { id: row.id }, data: { railStatus: 'FAILED', railNote: null } });
    return 'APPLIED';
  });
}

/**
 * A payout that failed before paying out is refunded: at once, or — money the rail pulled from
 * the payer's bank — by a refund the rail carries back (rail-refund.ts), PENDING until it reports.
 */
const payoutFailure = (row: Row, reason: string): Failure =>
  refundsOverRail(row) ? overRail(refundedFailure(reason)) : refundedFailure(reason);

const failureReasonOf = (event: RailEvent) =>
  (RAIL_FAILURE_REASONS as readonly string[]).includes(event.failureReason ?? '')
    ? event.failureReason!
    : 'ACCOUNT_CANNOT_RECEIVE';

/** A payout sent back by the receiving bank: completed first if it had not been, then returned. */
async function applyReturn(row: Row): Promise<EventResult> {
  if (row.status === 'PROCESSING') {
    const done = await transaction(async (tx) => {
      const fresh = await txRepo.findByIdUnscoped(row.id, tx);
      return fresh?.status === 'PROCESSING' ? completePayout(tx, fresh) : null;
    });
    if (!done) return 'IGNORED';
  } else if (row.status !== 'COMPLETED') return 'IGNORED';
  // Money pulled from the payer's bank goes back there over the rail (rail-refund.ts).
  const viaRail = refundsOverRail(row);
  if (!(await returnStep(row.id, { overRail: viaRail }))) return 'IGNORED';
  if (!viaRail)
    await db().transaction.update({ where: { id: row.id }, data: { railStatus: 'RETURNED', railNote: null } });
  return 'APPLIED';
}

/** Note on a pull the payer's bank returned after it completed: the money is not taken back here. */
export const PULL_RETURNED_NOTE =
  "returned by the payer's bank after it completed: the credited amount stays in the account until staff take it back";

/**
 * An event about a pull: COMPLETED makes the pending credit available; FAILED, or RETURNED before
 * it completed, withdraws it. RETURNED after COMPLETED (an ACH debit reversed days later) would
 * take back money the customer may already have spent: it is recorded on the transaction
 * (PULL_RETURNED, in the console's "refunds needing staff") for staff to take back
 * (rail-pull-reversal-ops.ts), not posted here.
 */
async function applyPullEvent(row: Row, event: RailEvent): Promise<EventResult> {
  return transaction(async (tx): Promise<EventResult> => {
    const fresh = await txRepo.findByIdUnscoped(row.id, tx);
    if (!fresh) return 'UNKNOWN_REFERENCE';
    if (fresh.status === 'COMPLETED' && event.status === 'RETURNED') {
      const at = now();
      const r = await tx.transaction.updateMany({
        where: { id: row.id, status: 'COMPLETED', pullReturnedAt: null },
        data: { railStatus: PULL_RETURNED, pullReturnedAt: at, railNote: PULL_RETURNED_NOTE, updatedAt: at },
      });
      if (r.count === 0) return 'IGNORED';
      log().warn({ transactionId: row.id }, 'a completed pull was returned by the payer bank');
      return 'APPLIED';
    }
    if (fresh.status !== 'PROCESSING') return 'IGNORED';
    if (event.status === 'COMPLETED') {
      if (!(await completePull(tx, fresh))) return 'IGNORED';
      await tx.transaction.update({ where: { id: row.id }, data: { railStatus: 'COMPLETED', railNote: null } });
      return 'APPLIED';
    }
    if (!(await failPull(tx, fresh))) return 'IGNORED';
    await tx.transaction.update({ where: { id: row.id }, data: { railStatus: event.status, railNote: null } });
    return 'APPLIED';
  });
}

export type CallbackResult =
  | { kind: 'NO_RAIL' | 'BAD_SIGNATURE' | 'BAD_BODY' | 'UNKNOWN_REFERENCE'; message: string }
  | { kind: 'APPLIED' | 'IGNORED'; message: string };

/**
 * A status callback from the connected rail (app/rails/callbacks): checked against the rail's
 * signature, then applied on the clock of the payment's platform. Safe to repeat.
 */
export async function takeRailCallback(body: string, signature: string | null): Promise<CallbackResult> {
  const rail = paymentRail.get();
  if (!rail.verifyCallback) return { kind: 'NO_RAIL', message: 'No payment rail taking callbacks is connected' };
  if (!rail.verifyCallback(body, signature))
    return { kind: 'BAD_SIGNATURE', message: `The ${RAIL_SIGNATURE_HEADER} signature does not verify` };
  const event = railEventOf(body);
  if ('error' in event) return { kind: 'BAD_BODY', message: event.error };
  const row = await txRepo.findByIdUnscoped(transactionIdOf(event.reference), db());
  const platform = row && (await platforms.findById(row.platformId, db()));
  if (!row || !platform) return { kind: 'UNKNOWN_REFERENCE', message: `No payment ${event.reference}` };
  const result = await runAs({ kind: 'system', platformId: platform.id, ...clockOf(platform) }, () =>
    applyRailEvent(event),
  );
  if (result === 'UNKNOWN_REFERENCE') return { kind: result, message: `No payout ${event.reference} went to the rail` };
  log().info({ reference: event.reference, status: event.status, eventId: event.eventId, result }, 'rail callback');
  return {
    kind: result,
    message: result === 'APPLIED' ? `${event.status} applied` : `${event.status} changes nothing now`,
  };
}
