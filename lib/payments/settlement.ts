import { clockOf, now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import type { BatchJobHandler, JobHandler, Sweep } from '../jobs/queue';
import { runAs } from '../core/context';
import * as ledger from '../ledger/service';
import * as accountsRepo from '../accounts/repository';
import type { InternalAccountRow } from '../accounts/repository';
import * as txRepo from './transactions/repository';
import * as quotes from './quotes/repository';
import { expireLocked } from './quotes/execute';
import { deliverUmaPayment } from './uma/deliver';
import { leaveUnapplied, mayApply } from './script-hold';
import { planOf } from './plan';
import * as repo from './repository';
import type { PayoutScenario } from './scenarios';
import * as steps from './steps';

// What happens to an outgoing payment after it starts moving, driven by timed jobs:
//   payment.settle  the rail reports back: complete the payout, or fail it and refund
//   payment.return  a completed payout comes back from the receiving bank (sandbox 005)
//   quote.expire    a quote nobody executed (or funded, or authorized) in time
// Each step is a guarded state move written with its money and events in one statement
// (payments/steps.ts, ledger.runStep): a job that runs twice, or races a cancellation, changes
// nothing the second time.
type Row = txRepo.TransactionRow;

/** The platform's own internal account in the sending currency, where its fees settle. */
async function feeAccountOf(row: Row, tx: Tx): Promise<InternalAccountRow | null> {
  if (!row.platformFees) return null;
  return (
    (await accountsRepo.platformAccounts(row.platformId, tx)).find(
      (a) => a.currency === row.sentCurrency && a.status === 'ACTIVE',
    ) ?? null
  );
}

/** The rows a step of `row` announces balances for, read inside `tx`. */
async function accountsOf(row: Row, tx: Tx): Promise<steps.Accounts> {
  const ids = steps.touchedInternal(row);
  return { accounts: ids.length ? await accountsRepo.byIds(ids, tx) : [], feeAccount: await feeAccountOf(row, tx) };
}

/** Completes the payout inside `tx`; null when the payment had already moved on. */
export async function completePayout(tx: Tx, row: Row): Promise<Row | null> {
  const { step, done } = steps.complete(row, await accountsOf(row, tx), now());
  if (!(await ledger.runStep(step, tx))) return null;
  const { route } = planOf(done);
  if (route.kind === 'UMA_CUSTOMER') await deliverUmaPayment(tx, done, route);
  return done;
}

/**
 * Fails a payment that has not paid out, inside `tx`. `refunded` false means the refund failed
 * too (sandbox 007): the money stays held in the source account, visible in totalBalance, for
 * operations to resolve; it is never lost.
 */
export async function failPayout(tx: Tx, row: Row, p: steps.Failure): Promise<Row | null> {
  const { step, failed } = steps.fail(row, await accountsOf(row, tx), p, now());
  return (await ledger.runStep(step, tx)) ? failed : null;
}

// The pull that funds the payment failed: nothing arrived, so nothing is paid out or refunded.
const PULL_FAILED: steps.Failure = { failureReason: steps.COLLECTION_FAILURE, refund: null };

const FAILURES: Partial<Record<PayoutScenario, steps.Failure>> = {
  EXECUTION_FAILED: steps.refundedFailure('QUOTE_EXECUTION_FAILED'),
  DELIVERY_FAILED: steps.refundedFailure('ACCOUNT_CANNOT_RECEIVE'),
  USER_CANCELLED: steps.CANCELLED,
  PAYOUT_AND_REFUND_FAILED: {
    failureReason: 'ACCOUNT_INVALID',
    refund: { reason: 'TRANSACTION_FAILED', completed: false },
  },
  COMPLIANCE_FAILED: steps.refundedFailure('COMPLIANCE_REJECTED'),
  COLLECTION_FAILED: PULL_FAILED,
  COLLECTION_FAILED_LATE: PULL_FAILED,
};

/**
 * The rail reports back on payouts in flight. One read for all of them, then one statement for
 * all that settle the simple way (ledger.runSteps); a payout to another customer of this service
 * (UMA) settles in a transaction of its own, as the money lands with its receiver there. Returns,
 * per id, undefined when handled (settled, failed, or no longer in flight) or the error met.
 */
export async function settleMany(transactionIds: string[]): Promise<unknown[]> {
  const found = await repo.findWithAccounts(transactionIds, db());
  const feeAccounts = new Map<string, InternalAccountRow | null>();
  const batch: { index: number; step: ledger.Step }[] = [];
  const results: unknown[] = transactionIds.map(() => undefined);
  const seen = new Set<string>();
  for (const [index, id] of transactionIds.entries()) {
    if (seen.has(id)) continue; // the same payout twice in one pass: once is enough
    seen.add(id);
    const f = found.get(id);
    if (!f || f.row.status !== 'PROCESSING') continue; // cancelled, or already settled
    const { row } = f;
    try {
      if (!mayApply(row)) {
        await leaveUnapplied(row, db());
        continue;
      }
      const key = `${row.platformId} ${row.sentCurrency}`;
      if (row.platformFees && !feeAccounts.has(key)) feeAccounts.set(key, await feeAccountOf(row, db()));
      const ctx = { accounts: f.accounts, feeAccount: row.platformFees ? (feeAccounts.get(key) ?? null) : null };
      const scenario = row.scenario as PayoutScenario;
      const failure = FAILURES[scenario];
      if (failure) batch.push({ index, step: steps.fail(row, ctx, failure, now()).step });
      else if (planOf(row).route.kind === 'UMA_CUSTOMER') {
        await transaction(async (tx) => {
          const fresh = await txRepo.findByIdUnscoped(id, tx);
          if (fresh?.status === 'PROCESSING') await completePayout(tx, fresh);
        });
      } else
        batch.push({ index, step: steps.complete(row, ctx, now(), { returnsLater: scenario === 'RETURNED' }).step });
    } catch (err) {
      results[index] = err;
    }
  }
  const written = await ledger.runSteps(batch.map((b) => b.step));
  for (const [i, b] of batch.entries()) if (written[i] instanceof Error) results[b.index] = written[i];
  return results;
}

/**
 * The receiving bank returned a completed payout: principal back to the source, fees kept (or,
 * `overRail`, back into flight with a refund the rail carries to the payer's bank). Whether it applied.
 */
export async function returnStep(transactionId: string, opts: { overRail?: boolean } = {}): Promise<boolean> {
  const found = (await repo.findWithAccounts([transactionId], db())).get(transactionId);
  if (!found || found.row.status !== 'COMPLETED') return false;
  const ctx = { accounts: found.accounts, feeAccount: null };
  return ledger.runStep(steps.returned(found.row, ctx, now(), opts).step, db());
}

/** Payouts due to settle ('payment.settle'), several at once. */
export const settleJobs: BatchJobHandler = async (jobs) =>
  settleMany(jobs.map((j) => (j.payload as { transactionId: string }).transactionId));

/** A completed payout coming back ('payment.return', sandbox suffix 005). */
export const returnJob: JobHandler = async (payload) => {
  await returnStep((payload as { transactionId: string }).transactionId);
};

/** Quotes nobody executed, funded or authorized in time ('quote.expire'). Each platform's own clock decides. */
export const expireQuotes: Sweep = async ({ platformId }) => {
  let done = 0;
  for (;;) {
    const expired = await transaction(async (tx) => {
      const due = await quotes.lockExpired(new Date(), 50, platformId, tx);
      for (const quote of due) {
        await runAs({ kind: 'system', platformId: quote.platformId, ...clockOf(quote) }, () => expireLocked(tx, quote));
      }
      return due.length;
    });
    done += expired;
    if (expired < 50) return done;
  }
};
