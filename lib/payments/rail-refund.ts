import { addSeconds, now } from '../core/clock';
import { db, transaction, type Tx } from '../core/db';
import { log } from '../core/log';
import * as ledger from '../ledger/service';
import { enqueue, type JobHandler } from '../jobs/queue';
import * as txRepo from './transactions/repository';
import { refundAmount } from './postings';
import {
  PULL_RETURNED,
  REFUND_HELD,
  REFUND_IN_FLIGHT,
  REFUND_JOB,
  REFUND_PENDING,
  retryDelaySeconds,
  UNCONNECTED_RECHECK_SECONDS,
  type RailEvent,
} from './rail';
import { afterReversal, type EventResult, refundFor, refundsOverRail } from './rail-collect';
import { paymentRail } from './scenarios';
import { refundFailed, refundSettled } from './steps';

// The refund of a pull-funded quote, in production (rail-collect.ts): the rail pulled the money
// from the payer's bank, then the payout failed or came back. The money is not ours to keep, and
// it is not back with the payer until the rail carries it there: the transaction FAILS with a
// PENDING refund (steps.fail/returned with overRail), the money stays in flight (CLEARING), and a
// 'payment.refund' job hands the rail a RETURN of it to the account the pull debited, under the
// reference `<transaction id>:refund`. The rail's COMPLETED completes the refund and posts it;
// FAILED (or a refusal) fails it, the money staying in flight for operations, as sandbox 007.
// Every move is guarded on railStatus (REFUND_IN_FLIGHT): duplicated or out-of-order callbacks
// and re-run jobs apply once.
type Row = txRepo.TransactionRow;

export const REFUND_WAITING_FOR_RAIL =
  "waiting: no payment rail connected to send the refund to the payer's bank; the refund stays PENDING";
export const REFUND_HELD_NOTE =
  "refund not sent: the payer's bank returned the pull after it completed (the payer has the money back); review";

/** Where a refund still in flight stands with the rail (never over one the rail has settled). */
async function note(id: string, from: string[], railStatus: string, railNote: string | null, tx: Tx) {
  const r = await tx.transaction.updateMany({
    where: { id, status: 'FAILED', railStatus: { in: from } },
    data: { railStatus, railNote, updatedAt: now() },
  });
  return r.count > 0;
}

const again = (row: Row, attempt: number, seconds: number, tx: Tx) =>
  enqueue(tx, {
    platformId: row.platformId,
    kind: REFUND_JOB,
    payload: { transactionId: row.id, attempt },
    runAt: addSeconds(now(), seconds),
  });

/** Hands a pending refund to the rail and records the answer ('payment.refund'). */
export async function submitRefund(transactionId: string, attempt = 1): Promise<void> {
  const row = await txRepo.findByIdUnscoped(transactionId, db());
  // Only a refund not yet accepted: once the rail took it, its events decide.
  if (!row || row.status !== 'FAILED' || !refundsOverRail(row)) return;
  if (row.railStatus !== REFUND_PENDING && row.railStatus !== 'REFUND_WAITING') return;
  if (row.pullReturnedAt) {
    // Sending it would pay the payer twice: the reversal already gave the money back.
    await transaction((tx) => note(row.id, [REFUND_PENDING, 'REFUND_WAITING'], REFUND_HELD, REFUND_HELD_NOTE, tx));
    return;
  }
  const answer = await paymentRail.get().submit(await refundFor(row, refundAmount(row)));
  const waiting = [REFUND_PENDING, 'REFUND_WAITING'];
  await transaction(async (tx) => {
    switch (answer.outcome) {
      case 'ACCEPTED':
        await note(
          row.id,
          waiting,
          'REFUND_ACCEPTED',
          answer.providerReference ? `refund: rail reference ${answer.providerReference}` : null,
          tx,
        );
        return;
      case 'REFUSED': {
        const fresh = await txRepo.findByIdUnscoped(row.id, tx);
        if (fresh && waiting.includes(fresh.railStatus ?? ''))
          await ledger.runStep(refundFailed(fresh, now(), `refund refused by the rail: ${answer.reason}`).step, tx);
        return;
      }
      case 'RETRY': {
        const wait = retryDelaySeconds(attempt, answer.afterSeconds);
        const why = `rail asked to retry the refund (${answer.reason}); attempt ${attempt + 1} in ${wait} s`;
        if (await note(row.id, waiting, 'REFUND_WAITING', why, tx)) await again(row, attempt + 1, wait, tx);
        return;
      }
      case 'UNCONNECTED':
        // Never pretend: the refund stays PENDING with the reason, offered again later.
        if (await note(row.id, waiting, 'REFUND_WAITING', REFUND_WAITING_FOR_RAIL, tx))
          await again(row, attempt, UNCONNECTED_RECHECK_SECONDS, tx);
        return;
    }
  });
}

export const refundJob: JobHandler = async (payload) => {
  const p = payload as { transactionId: string; attempt?: number };
  await submitRefund(p.transactionId, p.attempt ?? 1);
};

/** Note on a refund the payer's bank sent back after it completed: recorded for staff, not posted. */
export const REFUND_RETURNED_NOTE =
  "the refund was returned by the payer's bank after it completed: not posted; review the payer's account";

/**
 * An event about a refund (reference `<id>:refund`, or `<id>:refund:<attempt>` once staff sent it
 * again). COMPLETED completes the refund and posts it; FAILED, or RETURNED before it completed,
 * fails it (the money stays in flight for operations); RETURNED after it completed is recorded,
 * not posted. An event about an earlier attempt than the current one (a late callback after
 * staff sent the refund again) and anything else change nothing.
 */
export async function applyRefundEvent(row: Row, event: RailEvent, attempt = 1): Promise<EventResult> {
  if (row.status !== 'FAILED' || !refundsOverRail(row)) return 'IGNORED';
  return transaction(async (tx): Promise<EventResult> => {
    // The steps below are guarded on this attempt too (steps.ts refundGuard): a re-send that
    // commits between this read and them leaves them matching nothing.
    const fresh = await txRepo.findByIdUnscoped(row.id, tx);
    if (!fresh) return 'UNKNOWN_REFERENCE';
    if (fresh.refundAttempt !== attempt) return 'IGNORED';
    // Also after the pull's reversal was recorded over the completed refund (PULL_RETURNED): the
    // refund coming back means the payer was not repaid twice after all.
    const completed = ['REFUND_COMPLETED', PULL_RETURNED];
    const refundDone = (fresh.refund as { status?: string } | null)?.status === 'COMPLETED';
    if (event.status === 'RETURNED' && refundDone && completed.includes(fresh.railStatus ?? '')) {
      if (!(await note(row.id, completed, 'REFUND_RETURNED', REFUND_RETURNED_NOTE, tx))) return 'IGNORED';
      log().warn({ transactionId: row.id }, 'a completed refund was returned by the payer bank');
      return 'APPLIED';
    }
    if (!REFUND_IN_FLIGHT.includes(fresh.railStatus ?? '')) return 'IGNORED';
    const step =
      event.status === 'COMPLETED'
        ? refundSettled(fresh, now()).step
        : refundFailed(
            fresh,
            now(),
            `the refund to the payer's bank ${event.status === 'FAILED' ? 'failed' : 'was returned'}${
              event.failureReason ? ` (${event.failureReason})` : ''
            }: the money stays in clearing for operations`,
          ).step;
    if (!(await ledger.runStep(step, tx))) return 'IGNORED';
    // The payer's bank reversed the pull while the refund was on its way: repaid twice.
    if (event.status === 'COMPLETED') {
      const state = await afterReversal(tx, row.id, 'REFUND_COMPLETED');
      if (state.railStatus !== 'REFUND_COMPLETED') await tx.transaction.update({ where: { id: row.id }, data: state });
    }
    return 'APPLIED';
  });
}
