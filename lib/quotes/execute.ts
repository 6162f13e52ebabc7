import { now } from '../clock';
import { transaction, type Tx } from '../db';
import { ApiError, invalidInput, notFound } from '../http/errors';
import * as ledger from '../ledger/service';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import * as steps from '../payments/steps';
import type { InternalAccountRow } from '../accounts/repository';
import { recordEvents } from '../events/outbox';
import * as repo from './repository';
import { toQuote, type Quote } from './presenter';

// POST /quotes/{quoteId}/execute: moves the quote's total from the source account into flight
// and starts the payout. The common case is one read and one statement (payments/steps.ts start,
// ledger.runStep): the statement moves the quote and its transaction out of PENDING only if they
// are still there, so two executions of one quote (concurrent or repeated) execute it once and
// the second is refused. Quotes that need more (an embedded-wallet signature, a recorded expiry)
// go through a database transaction holding the quote's row lock.

const conflict = (quoteId: string, status: string) => new ApiError('CONFLICT', `Quote ${quoteId} is ${status} and cannot be executed again`, { status });

/**
 * Executes a quote inside `tx` (the quote locked, or just created there). `sourceAccount` is the
 * source internal account's row (null for real-time funding): its balance event is written with
 * the money.
 */
export async function executeLocked(tx: Tx, quote: repo.QuoteRow, pending: txRepo.TransactionRow, sourceAccount: InternalAccountRow | null): Promise<Quote> {
  const at = now();
  // InsufficientFunds rolls it all back: the quote stays PENDING and nothing moved.
  const { step } = steps.start(quote.id, pending, sourceAccount, at);
  if (!(await ledger.runStep(step, tx))) throw new ApiError('CONFLICT', `Quote ${quote.id} cannot be executed from status ${pending.status}`);
  return toQuote({ ...quote, status: 'PROCESSING', executedAt: at, updatedAt: at });
}

export type WalletSignatureCheck = (quote: repo.QuoteRow, tx: Tx) => Promise<void>;

function refuse(found: repo.ForExecution, quoteId: string): void {
  const { quote } = found;
  if ((quote.source as { sourceType: string }).sourceType === 'REALTIME_FUNDING') {
    throw invalidInput('A real-time-funding quote is executed by paying its paymentInstructions (in sandbox: POST /sandbox/send), not by this call');
  }
  if (quote.status !== 'PENDING') throw conflict(quoteId, quote.status);
}

export async function executeQuote(platformId: string, quoteId: string, checkWalletSignature: WalletSignatureCheck): Promise<Quote> {
  const found = await repo.findForExecution(platformId, quoteId);
  if (!found) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
  refuse(found, quoteId);
  const { quote, transaction: row, sourceAccount } = found;
  if (quote.payloadToSign || quote.expiresAt <= now()) return executeInTransaction(platformId, quoteId, checkWalletSignature);
  if (sourceAccount && sourceAccount.status !== 'ACTIVE') throw invalidInput(`The source account is ${sourceAccount.status} and cannot send`);
  const at = now();
  if (await ledger.runStep(steps.start(quote.id, row, sourceAccount, at).step)) {
    return toQuote({ ...quote, status: 'PROCESSING', executedAt: at, updatedAt: at });
  }
  // Someone else moved it first (a concurrent execution, the expiry sweep): say to what.
  const now_ = await repo.findById(platformId, quoteId);
  throw conflict(quoteId, now_?.status ?? quote.status);
}

/** The locked path: signature checks and expiry are recorded in the same transaction. */
async function executeInTransaction(platformId: string, quoteId: string, checkWalletSignature: WalletSignatureCheck): Promise<Quote> {
  const outcome = await transaction(async (tx) => {
    const found = await repo.findForExecution(platformId, quoteId, { tx, lock: true });
    if (!found) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    const { quote, transaction: row, sourceAccount } = found;
    if (quote.status !== 'PENDING') return { error: conflict(quoteId, quote.status) };
    // An Embedded Wallet source needs the holder's signature over the quote's payloadToSign.
    if (quote.payloadToSign) await checkWalletSignature(quote, tx);
    if (quote.expiresAt <= now()) {
      // Record the expiry now (the sweep may not have reached it yet), then refuse.
      await expireLocked(tx, quote);
      return { error: new ApiError('CONFLICT', `Quote ${quoteId} expired at ${quote.expiresAt.toISOString()}; create a new quote`, { status: 'EXPIRED' }) };
    }
    if (sourceAccount && sourceAccount.status !== 'ACTIVE') throw invalidInput(`The source account is ${sourceAccount.status} and cannot send`);
    return { quote: await executeLocked(tx, quote, row, sourceAccount) };
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
