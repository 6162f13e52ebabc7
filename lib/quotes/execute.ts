import { now, addSeconds } from '../clock';
import { transaction, type Tx } from '../db';
import { ApiError, invalidInput, notFound } from '../http/errors';
import { recordEvent } from '../events/outbox';
import { enqueue } from '../jobs/queue';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import { hold } from '../payments/postings';
import { planOf } from '../payments/plan';
import { payoutDelay, type PayoutScenario } from '../payments/scenarios';
import { announceBalances } from '../payments/balances';
import * as repo from './repository';
import { toQuote, type Quote } from './presenter';

// POST /quotes/{quoteId}/execute: moves the quote's total from the source account into flight
// and starts the payout. The quote row is locked for the whole database transaction, so two
// executions of one quote (concurrent or repeated) execute it once: the second sees PROCESSING.

/** Executes a quote already locked (or just created) in `tx`. */
export async function executeLocked(tx: Tx, quote: repo.QuoteRow): Promise<Quote> {
  const at = now();
  const row = await txRepo.findByIdUnscoped(quote.transactionId, tx);
  if (!row) throw new Error(`quote ${quote.id} lost its transaction`);
  await hold(tx, row); // InsufficientFunds aborts everything: nothing moved, quote still PENDING
  const started = await txRepo.transition(row.id, 'start', { updatedAt: at, expectedSettlementAt: addSeconds(at, payoutDelay(row.scenario as PayoutScenario)) }, tx);
  if (!started) throw new ApiError('CONFLICT', `Quote ${quote.id} cannot be executed from status ${row.status}`);
  await repo.setStatus(quote.id, ['PENDING'], 'PROCESSING', { executedAt: at, updatedAt: at }, tx);
  await recordEvent(tx, quote.platformId, 'OUTGOING_PAYMENT.PROCESSING', toTransaction(started));
  const { funding } = planOf(started);
  if (funding.kind === 'INTERNAL') await announceBalances(tx, quote.platformId, [funding.internalAccountId]);
  await enqueue(tx, { platformId: quote.platformId, kind: 'payment.settle', payload: { transactionId: row.id }, runAt: started.expectedSettlementAt ?? at });
  return toQuote((await repo.findById(quote.platformId, quote.id, tx))!);
}

export type WalletSignatureCheck = (quote: repo.QuoteRow) => Promise<void>;

export async function executeQuote(platformId: string, quoteId: string, checkWalletSignature: WalletSignatureCheck): Promise<Quote> {
  const pre = await repo.findById(platformId, quoteId);
  if (!pre) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
  if ((pre.source as { sourceType: string }).sourceType === 'REALTIME_FUNDING') {
    throw invalidInput('A real-time-funding quote is executed by paying its paymentInstructions (in sandbox: POST /sandbox/send), not by this call');
  }
  // An Embedded Wallet source needs the holder's signature over the quote's payloadToSign.
  if (pre.payloadToSign) await checkWalletSignature(pre);
  const outcome = await transaction(async (tx) => {
    const quote = await repo.lock(platformId, quoteId, tx);
    if (!quote) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
    if (quote.status !== 'PENDING') {
      return { error: new ApiError('CONFLICT', `Quote ${quoteId} is ${quote.status} and cannot be executed again`, { status: quote.status }) };
    }
    if (quote.expiresAt <= now()) {
      // Record the expiry now (the timer may not have fired yet), then refuse.
      await expireLocked(tx, quote);
      return { error: new ApiError('CONFLICT', `Quote ${quoteId} expired at ${quote.expiresAt.toISOString()}; create a new quote`, { status: 'EXPIRED' }) };
    }
    return { quote: await executeLocked(tx, quote) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.quote;
}

/** Marks a quote and its transaction EXPIRED if they are still waiting. */
export async function expireLocked(tx: Tx, quote: repo.QuoteRow): Promise<boolean> {
  const at = now();
  if (!(await repo.setStatus(quote.id, ['PENDING', 'PENDING_AUTHORIZATION'], 'EXPIRED', { updatedAt: at }, tx))) return false;
  const expired = await txRepo.transition(quote.transactionId, 'expire', { updatedAt: at }, tx);
  if (expired) await recordEvent(tx, quote.platformId, 'OUTGOING_PAYMENT.EXPIRED', toTransaction(expired));
  return true;
}
