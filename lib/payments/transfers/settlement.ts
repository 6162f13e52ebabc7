import { now } from '../../core/clock';
import { transaction, type Tx } from '../../core/db';
import * as ledger from '../../ledger/service';
import { recordEvent } from '../../events/outbox';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import { announceBalances } from '../balances';
import { completePayout, failPayout } from '../settlement';
import { leaveUnapplied, mayApply } from '../script-hold';
import { refundedFailure, refundOf } from '../steps';
import type { TransferScenario } from '../scenarios';
import { SUBMIT_JOB } from '../rail';
import { enqueue, type JobHandler } from '../../jobs/queue';

// Same-currency transfers after they start: the rail reports back (job transfer.settle).
// Transfer-out uses the payout steps of the payments engine; transfer-in (a pull) moves money
// from the customer's PENDING bucket to AVAILABLE when the collection settles, or back out to the
// world when it fails.
type Row = txRepo.TransactionRow;

async function pullLegs(tx: Tx, row: Row, kind: 'PULL_SETTLE' | 'PULL_FAIL') {
  const c = row.receivedCurrency!;
  const amount = row.receivedAmount!;
  const pending = ledger.bucketAccount(row.internalAccountId!, 'PENDING');
  const other =
    kind === 'PULL_SETTLE'
      ? ledger.bucketAccount(row.internalAccountId!, 'AVAILABLE')
      : ledger.systemAccount(row.platformId, `WORLD:${row.paymentRail ?? 'ACH'}`, c);
  await ledger.post(tx, {
    platformId: row.platformId,
    kind,
    transactionId: row.id,
    legs: [
      { account: pending, currency: c, amount: -amount },
      { account: other, currency: c, amount },
    ],
  });
}

/** A pull that did not settle (the collection failed, or `data` says otherwise): the pending credit is withdrawn. */
export async function failPull(
  tx: Tx,
  row: Row,
  data: { failureReason?: string; refund?: object } = { failureReason: 'COLLECTION_FAILED' },
): Promise<Row | null> {
  const failed = await txRepo.transition(row.id, 'fail', { ...data, updatedAt: now() }, tx);
  if (!failed) return null;
  await pullLegs(tx, failed, 'PULL_FAIL');
  await recordEvent(tx, row.platformId, 'INCOMING_PAYMENT.FAILED', toTransaction(failed));
  await announceBalances(tx, row.platformId, [row.internalAccountId!]);
  return failed;
}

/** A pull cancelled before it settled. */
export function cancelPull(tx: Tx, row: Row): Promise<Row | null> {
  return failPull(tx, row, {
    failureReason: 'COLLECTION_FAILED',
    refund: refundOf(row, now(), 'COMPLETED', 'USER_CANCELLATION'),
  });
}

export async function settleTransfer(transactionId: string): Promise<void> {
  await transaction(async (tx) => {
    const row = await txRepo.findByIdUnscoped(transactionId, tx);
    if (!row || row.status !== 'PROCESSING') return;
    const scenario = row.scenario as TransferScenario;
    if (scenario === 'WAITING_FOR_RAIL') {
      // Production: the rail decides (rail-engine.ts). A settlement job for such a transfer (one
      // started before transfers went to the rail) hands it to the rail instead of deciding.
      await enqueue(tx, { platformId: row.platformId, kind: SUBMIT_JOB, payload: { transactionId: row.id } });
      return;
    }
    if (!mayApply(row)) {
      // Production with a sandbox script on the row (../script-hold.ts): neither completed nor
      // failed by the script; it stays PROCESSING, money held, until staff act.
      await leaveUnapplied(row, tx);
      return;
    }
    if (row.type === 'OUTGOING') {
      if (scenario === 'BANK_REJECTED') await failPayout(tx, row, refundedFailure('ACCOUNT_CANNOT_RECEIVE'));
      else if (scenario === 'PENDING_THEN_FAILS') await failPayout(tx, row, refundedFailure('QUOTE_EXECUTION_FAILED'));
      else await completePayout(tx, row);
      return;
    }
    if (scenario === 'BANK_REJECTED' || scenario === 'PENDING_THEN_FAILS') {
      await failPull(tx, row);
      return;
    }
    await completePull(tx, row);
  });
}

/** A pull whose collection settled: the pending credit becomes available. Null when it had moved on. */
export async function completePull(tx: Tx, row: Row): Promise<Row | null> {
  const done = await txRepo.transition(row.id, 'complete', { settledAt: now(), updatedAt: now() }, tx);
  if (!done) return null;
  await pullLegs(tx, done, 'PULL_SETTLE');
  await recordEvent(tx, row.platformId, 'INCOMING_PAYMENT.COMPLETED', toTransaction(done));
  await announceBalances(tx, row.platformId, [row.internalAccountId!]);
  return done;
}

/** A same-currency transfer due to settle ('transfer.settle'). */
export const settleTransferJob: JobHandler = async (payload) =>
  settleTransfer((payload as { transactionId: string }).transactionId);
