import { now, addSeconds } from '../clock';
import { transaction, type Tx } from '../db';
import type { EventType } from '../events/outbox';
import { enqueue, registerJob, registerSweep } from '../jobs/queue';
import { runAs } from '../context';
import * as accountsRepo from '../accounts/repository';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import * as quotes from '../quotes/repository';
import { expireLocked } from '../quotes/execute';
import { deliverUmaPayment } from '../uma/deliver';
import { planOf } from './plan';
import { release, reverse, settle } from './postings';
import { SETTLE_AFTER_SECONDS, type PayoutScenario } from './scenarios';
import { announceBalances } from './balances';

// What happens to an outgoing payment after it starts moving, driven by timed jobs:
//   payment.settle  the rail reports back: complete the payout, or fail it and refund
//   payment.return  a completed payout comes back from the receiving bank (sandbox 005)
//   quote.expire    a quote nobody executed (or funded, or authorized) in time
// Every step is one database transaction with a guarded state move, so a job that runs twice,
// or races a cancellation, changes nothing the second time.
type Row = txRepo.TransactionRow;

function touchedInternal(row: Row): string[] {
  const plan = planOf(row);
  const ids: string[] = [];
  if (plan.funding.kind === 'INTERNAL') ids.push(plan.funding.internalAccountId);
  if (plan.route.kind === 'INTERNAL') ids.push(plan.route.internalAccountId);
  return ids;
}

async function platformFeeAccount(tx: Tx, row: Row): Promise<string | null> {
  if (!row.platformFees) return null;
  const own = (await accountsRepo.platformAccounts(row.platformId, tx)).find((a) => a.currency === row.sentCurrency && a.status === 'ACTIVE');
  return own?.id ?? null;
}

async function mirrorQuote(tx: Tx, row: Row, to: string) {
  if (row.quoteId) await quotes.setStatus(row.quoteId, ['PROCESSING', 'COMPLETED'], to, { updatedAt: now() }, tx);
}

const prefix = (row: Row) => (row.type === 'INCOMING' ? 'INCOMING_PAYMENT' : 'OUTGOING_PAYMENT');

/** The payment's events of this step, then the new balances of the internal accounts it touched. */
async function announce(tx: Tx, row: Row, suffixes: string[], balancesOf: string[]) {
  await announceBalances(tx, row.platformId, balancesOf, suffixes.map((s) => ({ type: `${prefix(row)}.${s}` as EventType, data: toTransaction(row) })));
}

/** Completes the payout: money leaves to the destination, fees are recognised. */
export async function completePayout(tx: Tx, row: Row): Promise<Row | null> {
  const at = now();
  const done = await txRepo.transition(row.id, 'complete', { settledAt: at, updatedAt: at }, tx);
  if (!done) return null;
  await mirrorQuote(tx, done, 'COMPLETED');
  const feeAccount = await platformFeeAccount(tx, done);
  await settle(tx, done, feeAccount); // money moves last: busy rows stay locked briefly
  await announce(tx, done, ['COMPLETED'], [...touchedInternal(done), ...(feeAccount ? [feeAccount] : [])]);
  const { route } = planOf(done);
  if (route.kind === 'UMA_CUSTOMER') await deliverUmaPayment(tx, done, route);
  return done;
}

/**
 * Fails a payment that has not paid out. `refunded` false means the refund failed too (sandbox
 * 007): the money stays held in the source account, visible in totalBalance, for operations to
 * resolve; it is never lost.
 */
export async function failPayout(tx: Tx, row: Row, p: { failureReason?: string; refundReason: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT'; refunded: boolean }): Promise<Row | null> {
  const at = now();
  const refund = { reference: `RF${row.id.slice(12, 22).toUpperCase().replace(/-/g, '')}`, initiatedAt: at.toISOString(), status: p.refunded ? 'COMPLETED' : 'FAILED', reason: p.refundReason, ...(p.refunded ? { settledAt: at.toISOString() } : {}) };
  const failed = await txRepo.transition(row.id, 'fail', { failureReason: p.failureReason ?? null, refund, updatedAt: at }, tx);
  if (!failed) return null;
  await mirrorQuote(tx, failed, 'FAILED');
  if (p.refunded) await release(tx, failed);
  await announce(tx, failed, ['FAILED', p.refunded ? 'REFUND_COMPLETED' : 'REFUND_FAILED'], touchedInternal(failed));
  return failed;
}

export async function settleStep(transactionId: string): Promise<void> {
  await transaction(async (tx) => {
    const row = await txRepo.findByIdUnscoped(transactionId, tx);
    if (!row || row.status !== 'PROCESSING') return; // cancelled, or already settled
    switch (row.scenario as PayoutScenario) {
      case 'EXECUTION_FAILED':
        await failPayout(tx, row, { failureReason: 'QUOTE_EXECUTION_FAILED', refundReason: 'TRANSACTION_FAILED', refunded: true });
        return;
      case 'DELIVERY_FAILED':
        await failPayout(tx, row, { failureReason: 'ACCOUNT_CANNOT_RECEIVE', refundReason: 'TRANSACTION_FAILED', refunded: true });
        return;
      case 'USER_CANCELLED':
        await failPayout(tx, row, { refundReason: 'USER_CANCELLATION', refunded: true });
        return;
      case 'PAYOUT_AND_REFUND_FAILED':
        await failPayout(tx, row, { failureReason: 'ACCOUNT_INVALID', refundReason: 'TRANSACTION_FAILED', refunded: false });
        return;
      case 'COMPLIANCE_FAILED':
        await failPayout(tx, row, { failureReason: 'COMPLIANCE_REJECTED', refundReason: 'TRANSACTION_FAILED', refunded: true });
        return;
      case 'RETURNED': {
        const done = await completePayout(tx, row);
        if (done) await enqueue(tx, { platformId: row.platformId, kind: 'payment.return', payload: { transactionId }, runAt: addSeconds(now(), SETTLE_AFTER_SECONDS.returnAfter) });
        return;
      }
      default:
        await completePayout(tx, row);
    }
  });
}

/** The receiving bank returned a completed payout: principal back to the source, fees kept. */
export async function returnStep(transactionId: string): Promise<void> {
  await transaction(async (tx) => {
    const row = await txRepo.findByIdUnscoped(transactionId, tx);
    if (!row || row.status !== 'COMPLETED') return;
    const at = now();
    const refund = { reference: `RF${row.id.slice(12, 22).toUpperCase().replace(/-/g, '')}`, initiatedAt: at.toISOString(), settledAt: at.toISOString(), status: 'COMPLETED', reason: 'TRANSACTION_FAILED' };
    const returned = await txRepo.transition(row.id, 'returned', { failureReason: 'PAYOUT_RETURNED', refund, updatedAt: at }, tx);
    if (!returned) return;
    await mirrorQuote(tx, returned, 'FAILED');
    await reverse(tx, returned);
    await announce(tx, returned, ['FAILED', 'REFUND_COMPLETED'], touchedInternal(returned));
  });
}

registerJob('payment.settle', async (payload) => settleStep((payload as { transactionId: string }).transactionId));
registerJob('payment.return', async (payload) => returnStep((payload as { transactionId: string }).transactionId));
// Quotes nobody executed, funded or authorized in time. Each platform's own clock decides.
registerSweep('quote.expire', async ({ platformId }) => {
  let done = 0;
  for (;;) {
    const expired = await transaction(async (tx) => {
      const due = await quotes.lockExpired(new Date(), 50, platformId, tx);
      for (const quote of due) {
        await runAs({ kind: 'system', platformId: quote.platformId, clockOffsetMs: quote.clockOffsetMs }, () => expireLocked(tx, quote));
      }
      return due.length;
    });
    done += expired;
    if (expired < 50) return done;
  }
});
