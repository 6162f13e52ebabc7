import { now, addSeconds } from '../clock';
import { transaction, type Tx } from '../db';
import { ApiError, invalidInput, notFound } from '../http/errors';
import { jobRow } from '../jobs/queue';
import * as ledger from '../ledger/service';
import { insertRow } from '../sql';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import { holdPosting } from '../payments/postings';
import { planOf } from '../payments/plan';
import { payoutDelay, type PayoutScenario } from '../payments/scenarios';
import { balanceAnnouncements } from '../payments/balances';
import * as accountsRepo from '../accounts/repository';
import type { InternalAccountRow } from '../accounts/repository';
import { eventRow, recordEvents } from '../events/outbox';
import * as repo from './repository';
import { toQuote, type Quote } from './presenter';

// POST /quotes/{quoteId}/execute: moves the quote's total from the source account into flight
// and starts the payout. The quote row is locked for the whole database transaction, so two
// executions of one quote (concurrent or repeated) execute it once: the second sees PROCESSING.
// The writes go in one statement and the money moves last (see ledger.post), so the source
// account's row is locked only for the final steps.

/**
 * Executes a quote already locked (or just created) in `tx`: one statement writes every row of
 * the step, a second moves the money and records the balance event (the only statement that
 * locks the source account's row).
 */
export async function executeLocked(tx: Tx, quote: repo.QuoteRow, row?: txRepo.TransactionRow, sourceAccount?: InternalAccountRow | null): Promise<Quote> {
  const at = now();
  const pending = row ?? (await txRepo.findByIdUnscoped(quote.transactionId, tx));
  if (!pending) throw new Error(`quote ${quote.id} lost its transaction`);
  const settleAt = addSeconds(at, payoutDelay(pending.scenario as PayoutScenario));
  const started: txRepo.TransactionRow = { ...pending, status: 'PROCESSING', updatedAt: at, expectedSettlementAt: settleAt };
  const hold = holdPosting(started);
  const [transfer, entries] = ledger.postingRows(hold.transfer, hold.legs);
  const job = jobRow({ platformId: quote.platformId, kind: 'payment.settle', payload: { transactionId: started.id }, runAt: settleAt });
  const processing = eventRow(quote.platformId, 'OUTGOING_PAYMENT.PROCESSING', toTransaction(started), at);
  const [{ moved }] = await tx.$queryRaw<{ moved: number }[]>`
    WITH t AS (
      UPDATE "Transaction" SET "status" = 'PROCESSING', "updatedAt" = ${at}::timestamp(3), "expectedSettlementAt" = ${settleAt}::timestamp(3)
      WHERE "id" = ${started.id} AND "status" = 'PENDING' RETURNING "id"
    ),
    q AS (
      UPDATE "Quote" SET "status" = 'PROCESSING', "executedAt" = ${at}::timestamp(3), "updatedAt" = ${at}::timestamp(3)
      WHERE "id" = ${quote.id} AND "status" = 'PENDING'
    ),
    j AS (${insertRow('Job', job)}),
    lt AS (${transfer}),
    le AS (${entries}),
    ev AS (${insertRow('Event', processing)})
    SELECT count(*)::int AS moved FROM t`;
  if (moved !== 1) throw new ApiError('CONFLICT', `Quote ${quote.id} cannot be executed from status ${pending.status}`);
  const { funding } = planOf(started);
  const account = funding.kind !== 'INTERNAL' ? null : (sourceAccount ?? (await accountsRepo.findById(quote.platformId, funding.internalAccountId, tx)));
  // InsufficientFunds rolls it all back: the quote stays PENDING and nothing moved.
  await ledger.applyPosting(tx, hold, account ? balanceAnnouncements(quote.platformId, [account]) : []);
  return toQuote({ ...quote, status: 'PROCESSING', executedAt: at, updatedAt: at });
}

export type WalletSignatureCheck = (quote: repo.QuoteRow, tx: Tx) => Promise<void>;

export async function executeQuote(platformId: string, quoteId: string, checkWalletSignature: WalletSignatureCheck): Promise<Quote> {
  const outcome = await transaction(async (tx) => {
    const locked = await repo.lockForExecution(platformId, quoteId, tx);
    if (!locked) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    const { quote } = locked;
    if ((quote.source as { sourceType: string }).sourceType === 'REALTIME_FUNDING') {
      throw invalidInput('A real-time-funding quote is executed by paying its paymentInstructions (in sandbox: POST /sandbox/send), not by this call');
    }
    if (quote.status !== 'PENDING') {
      return { error: new ApiError('CONFLICT', `Quote ${quoteId} is ${quote.status} and cannot be executed again`, { status: quote.status }) };
    }
    // An Embedded Wallet source needs the holder's signature over the quote's payloadToSign.
    if (quote.payloadToSign) await checkWalletSignature(quote, tx);
    if (quote.expiresAt <= now()) {
      // Record the expiry now (the sweep may not have reached it yet), then refuse.
      await expireLocked(tx, quote);
      return { error: new ApiError('CONFLICT', `Quote ${quoteId} expired at ${quote.expiresAt.toISOString()}; create a new quote`, { status: 'EXPIRED' }) };
    }
    if (locked.sourceAccount && locked.sourceAccount.status !== 'ACTIVE') {
      throw invalidInput(`The source account is ${locked.sourceAccount.status} and cannot send`);
    }
    return { quote: await executeLocked(tx, quote, undefined, locked.sourceAccount) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.quote;
}

/** Marks a quote and its transaction EXPIRED if they are still waiting. */
export async function expireLocked(tx: Tx, quote: repo.QuoteRow): Promise<boolean> {
  const at = now();
  if (!(await repo.setStatus(quote.id, ['PENDING', 'PENDING_AUTHORIZATION'], 'EXPIRED', { updatedAt: at }, tx))) return false;
  const expired = await txRepo.transition(quote.transactionId, 'expire', { updatedAt: at }, tx);
  if (expired) await recordEvents(tx, quote.platformId, [{ type: 'OUTGOING_PAYMENT.EXPIRED', data: toTransaction(expired) }]);
  return true;
}

