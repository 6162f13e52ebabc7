import { now } from '../core/clock';
import { db, transaction } from '../core/db';
import { log } from '../core/log';
import { enqueue } from '../jobs/queue';
import * as txRepo from './transactions/repository';
import { planOf } from './plan';
import { SUBMIT_JOB, type RailEvent, type RailInstruction } from './rail';
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
export const transactionIdOf = (reference: string) =>
  reference.endsWith(PULL_REFERENCE_SUFFIX) ? reference.slice(0, -PULL_REFERENCE_SUFFIX.length) : reference;

/** A quote funded by a direct pull from the payer's bank (funding CLEARING over ACH, plan.ts). */
export const isPullFunded = (row: Row) => {
  if (row.type !== 'OUTGOING' || !row.plan) return false;
  const { funding } = planOf(row);
  return funding.kind === 'CLEARING' && funding.rail === 'ACH';
};

// The funding pull failed: nothing arrived, so nothing is paid out and there is nothing to refund
// (the hold on CLEARING is released back out to the payer's bank, as in the sandbox).
export const COLLECTION_FAILED: Failure = { failureReason: COLLECTION_FAILURE, refund: null };

/** The PULL that funds a pull-funded quote: the sending total, from the quote's source bank account. */
export async function fundingPullFor(row: Row): Promise<RailInstruction> {
  const { accountId } = row.source as { accountId: string };
  const route = await externalRoute(row.platformId, accountId, 'ACH', db());
  return {
    reference: pullReferenceOf(row.id),
    kind: 'PULL',
    platformId: row.platformId,
    amount: String(row.sentAmount ?? 0n),
    currency: row.sentCurrency ?? route.currency,
    rail: 'ACH',
    account: {
      externalAccountId: route.externalAccountId,
      accountType: route.accountType,
      identifier: route.identifier,
    },
    description: row.description ?? null,
  };
}

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
      // /transfer-in, taking it back is a staff decision, not a posting made here.
      log().warn({ transactionId: row.id }, 'the pull funding a quote was returned after it completed');
      return 'IGNORED';
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
