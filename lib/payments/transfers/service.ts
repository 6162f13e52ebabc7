import { newId } from '../../core/ids';
import { referenceCode } from '../../accounts/instructions';
import { addSeconds, now } from '../../core/clock';
import type { Tx } from '../../core/db';
import { effect } from '../../core/idempotency';
import { DomainError, fieldError, invalidInput, notFound } from '../../core/errors';
import * as ledger from '../../ledger/service';
import { recordEvent } from '../../events/outbox';
import { enqueue } from '../../jobs/queue';
import * as accounts from '../../accounts/service';
import * as customers from '../../customers/repository';
import { requireVerified } from '../../customers/kyc';
import { checkLimits } from '../limits';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import { checkOwnershipThreshold, externalRoute, pullRoute } from '../routing';
import { hold } from '../postings';
import { announceBalances } from '../balances';
import { SETTLE_AFTER_SECONDS, transferScenario, type TransferScenario } from '../scenarios';
import { SUBMIT_JOB } from '../rail';
import type { z } from 'zod';
import type { transferIn as transferInSchema, transferOut as transferOutSchema } from './schema';

// Same-currency transfers between a customer's (or the platform's) internal and external
// accounts. Sandbox outcomes by the external account's identifier suffix: 002 and 003 fail at
// once (nothing moves), 004 is rejected by the bank, 005 stays pending about 30 s then fails.
type TransferOut = z.output<typeof transferOutSchema>;
type TransferIn = z.output<typeof transferInSchema>;

/** An active internal account of this platform (money may arrive in any, an Embedded Wallet included). */
async function activeInternal(platformId: string, accountId: string, field: string, tx: Tx) {
  const account = await accounts.findRow(platformId, accountId, tx);
  if (!account) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${accountId}`);
  if (account.status !== 'ACTIVE') throw fieldError(field, `Internal account ${accountId} is ${account.status}`);
  return account;
}

/** An internal account money may leave without a wallet signature. */
async function sourceInternal(platformId: string, accountId: string, field: string, tx: Tx) {
  const account = await activeInternal(platformId, accountId, field, tx);
  if (account.type === 'EMBEDDED_WALLET') {
    throw fieldError(
      field,
      "Embedded Wallet funds move only with the holder's signature: create a quote and execute it with Service-Wallet-Signature",
    );
  }
  return account;
}

async function checkCustomerReady(platformId: string, customerId: string | null, tx: Tx) {
  if (!customerId) return null;
  const c = await customers.findById(platformId, customerId, tx);
  if (!c || c.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${customerId}`);
  requireVerified(c);
  return c;
}

type ExternalRoute = Awaited<ReturnType<typeof externalRoute>>;

/**
 * The transaction row of a same-currency transfer. Out: internal account to external account;
 * in (a pull): external to internal, which also debits the customer's external account
 * (reference: TransactionDirection), so both are DEBIT.
 */
function transferRow(t: {
  platformId: string;
  customer: { platformCustomerId: string } | null;
  direction: 'OUT' | 'IN';
  internal: { id: string; customerId: string | null; currency: string };
  route: ExternalRoute;
  amount: bigint;
  scenario: TransferScenario;
  failureReason: string | null;
  remittanceInformation: string | null;
  at: Date;
  delay: number;
}) {
  const id = newId('Transaction');
  const internal = { accountId: t.internal.id, currency: t.internal.currency };
  const external = { accountId: t.route.externalAccountId, currency: t.route.currency };
  const out = t.direction === 'OUT';
  return {
    id,
    platformId: t.platformId,
    customerId: t.internal.customerId,
    platformCustomerId: t.customer?.platformCustomerId ?? null,
    type: out ? 'OUTGOING' : 'INCOMING',
    direction: 'DEBIT',
    status: failsAtOnce(t.scenario) ? 'FAILED' : 'PROCESSING',
    failureReason: t.failureReason,
    source: { sourceType: 'ACCOUNT', ...(out ? internal : external) },
    destination: { destinationType: 'ACCOUNT', ...(out ? external : internal) },
    internalAccountId: t.internal.id,
    externalAccountId: t.route.externalAccountId,
    sentCurrency: t.internal.currency,
    sentAmount: t.amount,
    receivedCurrency: t.internal.currency,
    receivedAmount: t.amount,
    fees: 0n,
    platformFees: 0n,
    paymentRail: t.route.rail,
    railSelectionMode: t.route.railSelection,
    expectedSettlementAt: failsAtOnce(t.scenario) ? null : addSeconds(t.at, t.delay),
    reference: referenceCode(id),
    remittanceInformation: t.remittanceInformation,
    scenario: t.scenario,
    ...(out
      ? { plan: { funding: { kind: 'INTERNAL', internalAccountId: t.internal.id }, route: t.route } as object }
      : {}),
    createdAt: t.at,
    updatedAt: t.at,
  };
}

const failsAtOnce = (s: TransferScenario) => s === 'INSUFFICIENT_FUNDS' || s === 'ACCOUNT_INVALID';

/**
 * A caller's own check around a transfer (an agent's policy, lib/agents): called inside the
 * transfer's transaction once the amount and the internal account are known, before anything is
 * written. HOLD stores the transaction PENDING and waiting for approval, with nothing moved;
 * startApproved() later starts it.
 */
export type TransferGate = (
  tx: Tx,
  facts: { amount: bigint; currency: string; internalAccountId: string },
) => Promise<'RUN' | 'HOLD'>;

export interface TransferOptions {
  gate?: TransferGate;
  agentId?: string;
}

/** A transfer held for approval: PENDING, awaiting the platform, no settlement time yet. */
const held = (row: ReturnType<typeof transferRow>, agentId?: string) => ({
  ...row,
  status: 'PENDING',
  awaitingApproval: true,
  expectedSettlementAt: null,
  agentId: agentId ?? null,
});

const settleDelay = (scenario: string) =>
  scenario === 'PENDING_THEN_FAILS' ? SETTLE_AFTER_SECONDS.transferPending : SETTLE_AFTER_SECONDS.default;

export async function transferOut(platformId: string, req: TransferOut) {
  return effect((tx) => transferOutWithin(tx, platformId, req));
}

/** POST /transfer-out inside the caller's transaction (`effect`), optionally gated. */
export async function transferOutWithin(tx: Tx, platformId: string, req: TransferOut, opts: TransferOptions = {}) {
  const source = await sourceInternal(platformId, req.source.accountId, 'source.accountId', tx);
  const route = await externalRoute(platformId, req.destination.accountId, req.destination.paymentRail, tx);
  if (route.currency !== source.currency) {
    throw new DomainError(
      'INVALID_CURRENCY',
      `Source is ${source.currency} and destination ${route.currency}: use a quote for cross-currency transfers`,
    );
  }
  if (route.ownerCustomerId !== source.customerId)
    throw invalidInput('The external account does not belong to the owner of the source account');
  const customer = await checkCustomerReady(platformId, source.customerId, tx);
  const amount = req.amount ?? (await ledger.balances([source.id], tx)).get(source.id)!.available;
  if (amount <= 0n) throw fieldError('amount', 'the source account has no available balance to transfer');
  await checkLimits(platformId, source.currency, source.currency, amount, amount, tx);
  checkOwnershipThreshold(route, amount, now());
  const scenario = transferScenario(route.identifier);
  const decision = opts.gate
    ? await opts.gate(tx, { amount, currency: source.currency, internalAccountId: source.id })
    : 'RUN';
  const at = now();
  const delay = settleDelay(scenario);
  const fields = transferRow({
    platformId,
    customer,
    direction: 'OUT',
    internal: source,
    route,
    amount,
    scenario,
    failureReason:
      scenario === 'ACCOUNT_INVALID'
        ? 'ACCOUNT_INVALID'
        : scenario === 'INSUFFICIENT_FUNDS'
          ? 'QUOTE_EXECUTION_FAILED'
          : null,
    remittanceInformation: req.remittanceInformation ?? null,
    at,
    delay,
  });
  // Held for approval: the PENDING transaction exists now, the money moves on approval.
  return write(tx, fields, { scenario, decision, agentId: opts.agentId, failed: 'OUTGOING_PAYMENT.FAILED' }, (row) =>
    startOut(tx, row, at, delay),
  );
}

/**
 * Writes a new transfer's transaction: held for approval (PENDING, nothing moves yet), failed at
 * once (a sandbox outcome decided at creation), or started.
 */
async function write(
  tx: Tx,
  fields: Parameters<typeof held>[0],
  w: {
    scenario: Parameters<typeof failsAtOnce>[0];
    decision: 'RUN' | 'HOLD';
    agentId?: string;
    failed: 'OUTGOING_PAYMENT.FAILED' | 'INCOMING_PAYMENT.FAILED';
  },
  start: (row: txRepo.TransactionRow) => Promise<void>,
) {
  if (w.decision === 'HOLD' && !failsAtOnce(w.scenario))
    return toTransaction(await txRepo.insert(held(fields, w.agentId), tx));
  const row = await txRepo.insert({ ...fields, agentId: w.agentId ?? null }, tx);
  if (failsAtOnce(w.scenario)) await recordEvent(tx, row.platformId, w.failed, toTransaction(row));
  else await start(row);
  return toTransaction(row);
}

/** Moves a transfer-out's amount into flight and schedules its settlement. */
async function startOut(tx: Tx, row: txRepo.TransactionRow, at: Date, delay: number) {
  await hold(tx, row); // real insufficient funds: 400, nothing written
  await recordEvent(tx, row.platformId, 'OUTGOING_PAYMENT.PROCESSING', toTransaction(row));
  await announceBalances(tx, row.platformId, [row.internalAccountId!]);
  await scheduleSettlement(tx, row, at, delay);
}

/**
 * What moves a started transfer on: in the sandbox its scripted settlement ('transfer.settle'
 * after the documented delay); in production the payment rail (WAITING_FOR_RAIL: the instruction
 * is submitted now, rail-engine.ts, and the rail's events decide).
 */
async function scheduleSettlement(tx: Tx, row: txRepo.TransactionRow, at: Date, delay: number) {
  const rail = row.scenario === 'WAITING_FOR_RAIL';
  await enqueue(tx, {
    platformId: row.platformId,
    kind: rail ? SUBMIT_JOB : 'transfer.settle',
    payload: { transactionId: row.id },
    runAt: rail ? at : addSeconds(at, delay),
  });
}

/** Direct pull (ACH debit) from a USD bank account into an internal account. */
export async function transferIn(platformId: string, req: TransferIn) {
  return effect((tx) => transferInWithin(tx, platformId, req));
}

/** POST /transfer-in inside the caller's transaction (`effect`), optionally gated. */
export async function transferInWithin(tx: Tx, platformId: string, req: TransferIn, opts: TransferOptions = {}) {
  if (req.amount === undefined) throw fieldError('amount', 'amount is required for a pull');
  const amount = req.amount;
  const route = await pullRoute(platformId, req.source.accountId, 'source.accountId', tx);
  const dest = await activeInternal(platformId, req.destination.accountId, 'destination.accountId', tx);
  if (dest.currency !== route.currency)
    throw new DomainError('INVALID_CURRENCY', `Source is ${route.currency} and destination ${dest.currency}`);
  if (route.ownerCustomerId !== dest.customerId)
    throw invalidInput('The external account does not belong to the owner of the destination account');
  const customer = await checkCustomerReady(platformId, dest.customerId, tx);
  await checkLimits(platformId, dest.currency, dest.currency, amount, amount, tx);
  const scenario = transferScenario(route.identifier);
  const decision = opts.gate
    ? await opts.gate(tx, { amount, currency: dest.currency, internalAccountId: dest.id })
    : 'RUN';
  const at = now();
  const delay = settleDelay(scenario);
  const fields = transferRow({
    platformId,
    customer,
    direction: 'IN',
    internal: dest,
    route: { ...route, rail: 'ACH', railSelection: 'AUTO' },
    amount,
    scenario,
    failureReason: failsAtOnce(scenario) ? 'COLLECTION_FAILED' : null,
    remittanceInformation: null,
    at,
    delay,
  });
  // Held for approval: no INCOMING_PAYMENT.PENDING event (its webhook answer would decide a
  // platform approval the agent's action owns); the action's own webhook announces it.
  return write(tx, fields, { scenario, decision, agentId: opts.agentId, failed: 'INCOMING_PAYMENT.FAILED' }, (row) =>
    startIn(tx, row, at, delay),
  );
}

/** The pulled amount shows as pending (in totalBalance, not spendable) until it settles. */
async function startIn(tx: Tx, row: txRepo.TransactionRow, at: Date, delay: number) {
  const currency = row.receivedCurrency!;
  const amount = row.receivedAmount!;
  await ledger.post(tx, {
    platformId: row.platformId,
    kind: 'PULL_START',
    transactionId: row.id,
    legs: [
      { account: ledger.systemAccount(row.platformId, 'WORLD:ACH', currency), currency, amount: -amount },
      { account: ledger.bucketAccount(row.internalAccountId!, 'PENDING'), currency, amount },
    ],
  });
  await recordEvent(tx, row.platformId, 'INCOMING_PAYMENT.PENDING', toTransaction(row));
  await announceBalances(tx, row.platformId, [row.internalAccountId!]);
  await scheduleSettlement(tx, row, at, delay);
}

/**
 * Starts a transfer held for approval (PENDING -> PROCESSING, guarded by the transition table):
 * the money moves now. Null when it is no longer waiting. Throws InsufficientFunds (roll back).
 */
export async function startApproved(tx: Tx, row: txRepo.TransactionRow): Promise<txRepo.TransactionRow | null> {
  const at = now();
  const delay = settleDelay(row.scenario ?? 'SUCCESS');
  const started = await txRepo.transition(
    row.id,
    'start',
    { awaitingApproval: false, expectedSettlementAt: addSeconds(at, delay), updatedAt: at },
    tx,
  );
  if (!started) return null;
  if (started.type === 'OUTGOING') await startOut(tx, started, at, delay);
  else await startIn(tx, started, at, delay);
  return started;
}
