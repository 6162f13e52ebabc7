import { claimMove, effect, Refusal } from '../../core/idempotency';
import { now } from '../../core/clock';
import { db, type Tx } from '../../core/db';
import { DomainError, invalidInput, notFound } from '../../core/errors';
import * as ledger from '../../ledger/service';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import * as steps from '../steps';
import type { InternalAccountRow } from '../../accounts/repository';
import { recordEvents } from '../../events/outbox';
import { ttlCache } from '../../core/cache';
import { pullRoute } from '../routing';
import * as repo from './repository';
import { toQuote, type Quote } from './presenter';

// POST /quotes/{quoteId}/execute: moves the quote's total from the source account into flight
// and starts the payout. The common case is one read and one statement (payments/steps.ts start,
// ledger.runStep): the statement moves the quote and its transaction out of PENDING only if they
// are still there, so two executions of one quote (concurrent or repeated) execute it once and
// the second is refused. Quotes that need more (an embedded-wallet signature, a recorded expiry)
// go through a database transaction holding the quote's row lock.

const conflict = (quoteId: string, status: string) =>
  new DomainError('CONFLICT', `Quote ${quoteId} is ${status} and cannot be executed again`, { status });

/**
 * Executes a quote inside `tx` (the quote locked, or just created there). `sourceAccount` is the
 * source internal account's row (null for real-time funding): its balance event is written with
 * the money.
 */
export async function executeLocked(
  tx: Tx,
  quote: repo.QuoteRow,
  pending: txRepo.TransactionRow,
  sourceAccount: InternalAccountRow | null,
): Promise<Quote> {
  const at = now();
  if (pending.scenario === 'COLLECTION_REFUSED') {
    // The funding pull is refused at once (sandbox): the execution is answered with the failure.
    if (!(await ledger.runStep(steps.refuseCollection(quote.id, pending, at).step, tx)))
      throw new DomainError('CONFLICT', `Quote ${quote.id} cannot be executed from status ${pending.status}`);
    return toQuote({ ...quote, status: 'FAILED', updatedAt: at });
  }
  // InsufficientFunds rolls it all back: the quote stays PENDING and nothing moved.
  const { step } = steps.start(quote.id, pending, sourceAccount, at);
  if (!(await ledger.runStep(step, tx)))
    throw new DomainError('CONFLICT', `Quote ${quote.id} cannot be executed from status ${pending.status}`);
  return toQuote({ ...quote, status: 'PROCESSING', executedAt: at, updatedAt: at });
}

export type WalletSignatureCheck = (quote: repo.QuoteRow, tx: Tx) => Promise<void>;

function requireActiveSource(account: InternalAccountRow | null): void {
  if (account && account.status !== 'ACTIVE')
    throw invalidInput(`The source account is ${account.status} and cannot send`);
}

function refuse(found: repo.ForExecution, quoteId: string): void {
  const { quote } = found;
  if ((quote.source as { sourceType: string }).sourceType === 'REALTIME_FUNDING') {
    throw invalidInput(
      'A real-time-funding quote is executed by paying its paymentInstructions (in sandbox: a simulated send), not by executing the quote',
    );
  }
  if (quote.status !== 'PENDING') throw conflict(quoteId, quote.status);
}

/**
 * Quotes this process has just created, kept for their first execution: the usual create-then-
 * execute pair then skips reading the quote again. Safe because a quote's terms never change
 * after creation, and what can change (its status, its transaction's, its source account's) is
 * re-checked by the step's statement itself; when that refuses, the execution goes the long way
 * with a fresh read and answers from it. Other server processes simply read.
 */
const created = ttlCache<repo.ForExecution>('quotes.created', 60_000, 5_000);

/** Called by quote creation once the quote is stored (not for immediately executed ones). */
export function remember(found: repo.ForExecution): void {
  created.set(found.quote.id, found);
}

export async function executeQuote(
  platformId: string,
  quoteId: string,
  checkWalletSignature: WalletSignatureCheck,
): Promise<Quote> {
  const recent = created.get(quoteId);
  if (recent) {
    created.delete(quoteId);
    if (recent.quote.platformId === platformId) {
      const done = await executeInOneStatement(recent);
      if (done) return done;
    }
  }
  const found = await repo.findForExecution(platformId, quoteId, { tx: db() });
  if (!found) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
  refuse(found, quoteId);
  const { quote, sourceAccount } = found;
  // A signed, expired or pull-funded quote takes the locked path (a pull's source is re-checked there).
  if (quote.payloadToSign || quote.expiresAt <= now() || isPull(quote))
    return executeInTransaction(platformId, quoteId, checkWalletSignature);
  requireActiveSource(sourceAccount);
  const done = await executeInOneStatement(found);
  if (done) return done;
  // Someone else moved it first (a concurrent execution, the expiry sweep, a closed account): say what.
  const current = await repo.findForExecution(platformId, quoteId, { tx: db() });
  requireActiveSource(current?.sourceAccount ?? null);
  throw conflict(quoteId, current?.quote.status ?? quote.status);
}

/**
 * The common execution as one statement, without a transaction: only for a PENDING, unsigned,
 * unexpired quote from an active internal account (as `found` says). Null when it does not apply
 * or the statement found the quote, its transaction or its source account moved on.
 */
async function executeInOneStatement(found: repo.ForExecution): Promise<Quote | null> {
  const { quote, transaction: row, sourceAccount } = found;
  if (
    !sourceAccount ||
    sourceAccount.status !== 'ACTIVE' ||
    quote.status !== 'PENDING' ||
    quote.payloadToSign ||
    quote.expiresAt <= now()
  )
    return null;
  const at = now();
  const executed = toQuote({ ...quote, status: 'PROCESSING', executedAt: at, updatedAt: at });
  const { step } = steps.start(quote.id, row, sourceAccount, at, { guardSource: true });
  // With an Idempotency-Key, the record of the answer is one more required part of the statement.
  const keyed = claimMove(executed);
  if (keyed) step.moves.push(keyed.guard);
  if (!(await ledger.runStep(step, db()))) return null;
  keyed?.bound();
  return executed;
}

/** Funded by a direct pull from an external account (the source is no internal account). */
const isPull = (quote: repo.QuoteRow) =>
  !quote.sourceAccountId && (quote.source as { sourceType: string }).sourceType === 'ACCOUNT';

/** The external account a pull-funded quote draws on must still exist and be usable now. */
async function requirePullable(platformId: string, quote: repo.QuoteRow, tx: Tx): Promise<void> {
  const { accountId } = quote.source as { accountId: string };
  await pullRoute(platformId, accountId, 'source.accountId', tx).catch((err) => {
    if (err instanceof DomainError && err.code === 'REFERENCE_NOT_FOUND')
      throw invalidInput(`The source external account ${accountId} no longer exists`, [
        { field: 'source.accountId', message: 'no longer exists' },
      ]);
    throw err;
  });
}

/** The locked path: signature checks and expiry are recorded in the same transaction. */
async function executeInTransaction(
  platformId: string,
  quoteId: string,
  checkWalletSignature: WalletSignatureCheck,
): Promise<Quote> {
  return effect(async (tx) => {
    const found = await lockForExecution(tx, platformId, quoteId, checkWalletSignature);
    if (found instanceof Refusal) return found;
    return executeLocked(tx, found.quote, found.transaction, found.sourceAccount);
  });
}

/**
 * Locks a quote that is to be executed in `tx` and checks that it can be: PENDING, signed by the
 * wallet holder when its source is an Embedded Wallet, not expired (an expiry found here is
 * recorded: the Refusal lets `tx` commit it), its source usable. Then `executeLocked` executes
 * it, now or, for a caller holding it for approval (lib/agents), later in another transaction.
 */
export async function lockForExecution(
  tx: Tx,
  platformId: string,
  quoteId: string,
  checkWalletSignature: WalletSignatureCheck,
): Promise<repo.ForExecution | Refusal> {
  const found = await repo.findForExecution(platformId, quoteId, { tx, lock: true });
  if (!found) throw notFound('QUOTE_NOT_FOUND', `Quote ${quoteId}`);
  const { quote, sourceAccount } = found;
  if (quote.status !== 'PENDING') return new Refusal(conflict(quoteId, quote.status));
  if ((quote.source as { sourceType: string }).sourceType === 'REALTIME_FUNDING') refuse(found, quoteId);
  // An Embedded Wallet source needs the holder's signature over the quote's payloadToSign.
  if (quote.payloadToSign) await checkWalletSignature(quote, tx);
  if (quote.expiresAt <= now()) {
    // Record the expiry now (the sweep may not have reached it yet), then refuse.
    await expireLocked(tx, quote);
    return new Refusal(
      new DomainError('CONFLICT', `Quote ${quoteId} expired at ${quote.expiresAt.toISOString()}; create a new quote`, {
        status: 'EXPIRED',
      }),
    );
  }
  requireActiveSource(sourceAccount);
  if (isPull(quote)) await requirePullable(platformId, quote, tx);
  return found;
}

/** Marks a quote and its transaction EXPIRED if they are still waiting. */
export async function expireLocked(tx: Tx, quote: repo.QuoteRow): Promise<boolean> {
  const at = now();
  if (!(await repo.move(quote.id, 'expire', { updatedAt: at }, tx))) return false;
  // A transaction an agent's action held for approval stops waiting with it.
  const expired = await txRepo.transition(
    quote.transactionId,
    'expire',
    { updatedAt: at, awaitingApproval: false },
    tx,
  );
  if (expired)
    await recordEvents(tx, quote.platformId, [{ type: 'OUTGOING_PAYMENT.EXPIRED', data: toTransaction(expired) }]);
  return true;
}
