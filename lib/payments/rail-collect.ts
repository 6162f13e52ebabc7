import { now } from '../core/clock';
import { db, transaction, type Tx } from '../core/db';
import { log } from '../core/log';
import { enqueue } from '../jobs/queue';
import * as txRepo from './transactions/repository';
import { planOf } from './plan';
import { PULL_RETURNED, REFUND_IN_FLIGHT, SUBMIT_JOB, type RailEvent, type RailInstruction } from './rail';
import { completePayout, failPayout } from './settlement';
import { COLLECTION_FAILURE, type Failure } from './steps';
import { externalRoute } from './routing';

// A quote funded by a direct pull from the payer's bank, in production (rail-engine.ts drives
// it): two instructions, in order. First the PULL of the sending total, under the reference
// `<transaction id>:pull`; only once the rail reports that pull COMPLETED, the PAYOUT of the
// receiving amount, under the transaction id. The pull's completion is recorded once
// (collectedAt, a guarded write that also enqueues the payout's submit job in the same
// transaction), so repeated or concurrent callbacks, worker retries and a crash between the steps
// hand the payout over under one reference only, which the rail carries once.
type Row = txRepo.TransactionRow;

export type EventResult = 'APPLIED' | 'IGNORED' | 'UNKNOWN_REFERENCE';

/** The note on a pull-funded quote while no rail is connected to collect its funds. */
export const PULL_WAITING_FOR_RAIL =
  'waiting: no payment rail connected to collect the funds by pull; nothing is paid out before they are collected';

/** The note on a pull-funded quote between its pull's completion and its payout's acceptance. */
export const COLLECTED_NOTE = 'funds collected by pull; the payout is being handed to the rail';

/** What makes a funding pull's reference distinct from its payout's (both name the transaction). */
export const PULL_REFERENCE_SUFFIX = ':pull';
export const pullReferenceOf = (transactionId: string) => `${transactionId}${PULL_REFERENCE_SUFFIX}`;
/**
 * ... and the refund of that pull's money back to the payer's bank (rail-refund.ts): the first
 * attempt `<id>:refund`, each one staff sends again `<id>:refund:<attempt>` (rail-refund-ops.ts) —
 * the rail is idempotent by reference, so a new attempt needs a reference the rail has not seen.
 */
export const REFUND_REFERENCE_SUFFIX = ':refund';
export const refundReferenceOf = (transactionId: string, attempt = 1) =>
  `${transactionId}${REFUND_REFERENCE_SUFFIX}${attempt > 1 ? `:${attempt}` : ''}`;
const REFUND_REFERENCE = /^(.+):refund(?::([1-9][0-9]{0,5}))?$/;
/** The refund attempt a reference names; null when it names no refund. */
export function refundAttemptOf(reference: string): number | null {
  const m = REFUND_REFERENCE.exec(reference);
  return m ? Number(m[2] ?? 1) : null;
}
export const transactionIdOf = (reference: string) => {
  const refund = REFUND_REFERENCE.exec(reference);
  if (refund) return refund[1];
  return reference.endsWith(PULL_REFERENCE_SUFFIX) ? reference.slice(0, -PULL_REFERENCE_SUFFIX.length) : reference;
};

/**
 * railStatus of a pull-funded quote while its pull is being handed to the rail (set, guarded,
 * before the rail is called; replaced by the rail's answer). With it, a cancellation and a
 * submission of the same pull exclude each other: see claimPullSubmission and cancellablePull.
 */
export const PULL_SUBMITTING = 'SUBMITTING';

/** Where a pull-funded quote stands when nothing of its pull can be with the rail. */
const PULL_NOT_HANDED_OVER = [{ railStatus: null }, { railStatus: 'WAITING' }];

/**
 * Before its pull is handed to the rail: marks it SUBMITTING, unless the quote has been
 * cancelled, failed or collected meanwhile (then nothing is sent). A submission that died after
 * the mark is taken up again (the rail carries a reference once).
 */
export async function claimPullSubmission(id: string, tx: Tx): Promise<boolean> {
  const r = await tx.transaction.updateMany({
    where: {
      id,
      status: 'PROCESSING',
      collectedAt: null,
      OR: [...PULL_NOT_HANDED_OVER, { railStatus: PULL_SUBMITTING }],
    },
    data: { railStatus: PULL_SUBMITTING, updatedAt: now() },
  });
  return r.count > 0;
}

/** Why a pull-funded quote cannot be cancelled while its pull is with the rail. */
export const PULL_WITH_RAIL =
  "its pull from the payer's bank is with the rail; once the funds are collected it can be cancelled and is refunded over the rail";

/**
 * For a cancellation of an uncollected pull-funded quote, in its transaction: locks the row if
 * nothing of the pull has been handed to the rail (none connected, or the rail asked to retry
 * later), so no submission can start until the cancellation has committed. False when the pull is
 * with the rail (or the quote moved on): the money may be debited from the payer any moment, and
 * a quote failed now would leave it collected with nothing to send it back.
 */
export async function cancellablePull(row: Row, tx: Tx): Promise<boolean> {
  const r = await tx.transaction.updateMany({
    where: { id: row.id, status: 'PROCESSING', collectedAt: null, OR: PULL_NOT_HANDED_OVER },
    data: { updatedAt: now() },
  });
  return r.count > 0;
}

/** An uncollected pull-funded quote in production: its pull may yet be handed to the rail. */
export const awaitsPull = (row: Row) => isPullFunded(row) && row.scenario === null && row.collectedAt === null;

/** A quote funded by a direct pull from the payer's bank (funding CLEARING over ACH, plan.ts). */
export const isPullFunded = (row: Row) => {
  if (row.type !== 'OUTGOING' || !row.plan) return false;
  const { funding } = planOf(row);
  return funding.kind === 'CLEARING' && funding.rail === 'ACH';
};

// The funding pull failed: nothing arrived, so nothing is paid out and there is nothing to refund
// (the hold on CLEARING is released back out to the payer's bank, as in the sandbox).
export const COLLECTION_FAILED: Failure = { failureReason: COLLECTION_FAILURE, refund: null };

/**
 * A pull-funded quote whose money the rail collected: a refund of it must go back over the rail
 * to the payer's bank (rail-refund.ts), never be marked done on its own.
 */
export const refundsOverRail = (row: Row) => isPullFunded(row) && row.scenario === null && row.collectedAt !== null;

/** The payer's bank account a pull-funded quote pulls from (and refunds to), over ACH. */
async function payerAccount(row: Row) {
  const { accountId } = row.source as { accountId: string };
  const route = await externalRoute(row.platformId, accountId, 'ACH', db());
  return {
    route,
    account: {
      externalAccountId: route.externalAccountId,
      accountType: route.accountType,
      identifier: route.identifier,
    },
  };
}

/** The PULL that funds a pull-funded quote: the sending total, from the quote's source bank account. */
export async function fundingPullFor(row: Row): Promise<RailInstruction> {
  const { route, account } = await payerAccount(row);
  return {
    reference: pullReferenceOf(row.id),
    kind: 'PULL',
    platformId: row.platformId,
    amount: String(row.sentAmount ?? 0n),
    currency: row.sentCurrency ?? route.currency,
    rail: 'ACH',
    account,
    description: row.description ?? null,
  };
}

/** The RETURN of `amount` (refundAmount) to the bank account the quote's pull debited, under the current attempt's reference. */
export async function refundFor(row: Row, amount: bigint): Promise<RailInstruction> {
  const { route, account } = await payerAccount(row);
  return {
    reference: refundReferenceOf(row.id, row.refundAttempt),
    kind: 'RETURN',
    originalReference: pullReferenceOf(row.id),
    platformId: row.platformId,
    amount: String(amount),
    currency: row.sentCurrency ?? route.currency,
    rail: 'ACH',
    account,
    description: row.description ?? null,
  };
}

/**
 * The railStatus of a pull-funded payment whose payout or refund just completed at the rail: PULL_RETURNED
 * when the pull was reversed meanwhile (the payer owes what went on; staff record it), else
 * `completed`. Read after the completing write, which locks the row: a reversal committed
 * before it is seen here, one committing after it sees the completed state (applyFundingPullEvent).
 */
export async function afterReversal(tx: Tx, id: string, completed: string) {
  const fresh = await txRepo.findByIdUnscoped(id, tx);
  return fresh?.pullReturnedAt
    ? { railStatus: PULL_RETURNED, railNote: PULL_REVERSED_NOTE }
    : { railStatus: completed, railNote: null };
}

/** The note on a pull-funded quote whose pull the payer's bank returned after it completed. */
export const PULL_REVERSED_NOTE =
  "the payer's bank returned the pull after it completed: the money had gone on; not posted until staff record it";

/**
 * An event about the pull that funds a quote (reference `<id>:pull`). COMPLETED records the
 * collection once and hands the payout over (its submit job, in the same transaction; a payout to
 * an internal account of this service completes right here). FAILED, or RETURNED before it
 * completed, fails the payment with nothing paid out: the hold on money that never arrived is
 * released exactly. Each starts with a guarded write on the row (status PROCESSING, not yet
 * collected), which also locks it: of concurrent or repeated events, one applies.
 */
export async function applyFundingPullEvent(row: Row, event: RailEvent): Promise<EventResult> {
  if (row.scenario !== null) return 'IGNORED'; // a sandbox quote: its pull is scripted
  return transaction(async (tx): Promise<EventResult> => {
    const at = now();
    const pending = { id: row.id, status: 'PROCESSING', collectedAt: null };
    if (event.status === 'COMPLETED') {
      const r = await tx.transaction.updateMany({
        where: pending,
        data: { collectedAt: at, railStatus: null, railNote: COLLECTED_NOTE, updatedAt: at },
      });
      if (r.count === 0) return 'IGNORED';
      const fresh = (await txRepo.findByIdUnscoped(row.id, tx))!;
      if (planOf(fresh).route.kind === 'EXTERNAL') {
        await enqueue(tx, {
          platformId: row.platformId,
          kind: SUBMIT_JOB,
          payload: { transactionId: row.id },
          runAt: at,
        });
        return 'APPLIED';
      }
      if (!(await completePayout(tx, fresh))) throw new Error(`collected payment ${row.id} did not complete`);
      await tx.transaction.update({ where: { id: row.id }, data: { railStatus: 'COMPLETED', railNote: null } });
      return 'APPLIED';
    }
    if (event.status === 'RETURNED' && row.collectedAt) {
      // The payer's bank reversed a debit whose money has gone on to the payout: as for a
      // /transfer-in, taking it back is a staff decision, not a posting made here. Recorded once
      // (pullReturnedAt, which also holds a refund not yet sent: the payer has the money back);
      // railStatus says so only once nothing else of the payment is with the rail.
      const r = await tx.transaction.updateMany({
        where: { id: row.id, collectedAt: { not: null }, pullReturnedAt: null },
        data: { pullReturnedAt: at, railNote: PULL_REVERSED_NOTE, updatedAt: at },
      });
      if (r.count === 0) return 'IGNORED';
      // The row is locked now: nothing moves it between this read and the write below.
      const fresh = (await txRepo.findByIdUnscoped(row.id, tx))!;
      // A refund the payer's bank returned keeps that state: staff close it as repaid by this
      // reversal (rail-refund-ops.ts). A payout or refund still with the rail sets PULL_RETURNED
      // when it completes (afterReversal).
      const inFlight = fresh.status === 'PROCESSING' || REFUND_IN_FLIGHT.includes(fresh.railStatus ?? '');
      if (!inFlight && fresh.railStatus !== 'REFUND_RETURNED')
        await tx.transaction.update({ where: { id: row.id }, data: { railStatus: PULL_RETURNED } });
      log().warn({ transactionId: row.id }, 'the pull funding a quote was returned after it completed');
      return 'APPLIED';
    }
    const why = `the pull from the payer's bank ${event.status === 'FAILED' ? 'failed' : 'was returned'}${
      event.failureReason ? ` (${event.failureReason})` : ''
    }: nothing was paid out`;
    const r = await tx.transaction.updateMany({
      where: pending,
      data: { railStatus: event.status, railNote: why, updatedAt: at },
    });
    if (r.count === 0) return 'IGNORED';
    const fresh = (await txRepo.findByIdUnscoped(row.id, tx))!;
    if (!(await failPayout(tx, fresh, COLLECTION_FAILED)))
      throw new Error(`uncollected payment ${row.id} did not fail`);
    return 'APPLIED';
  });
}
