import { referenceCode } from '../../accounts/instructions';
import { newId } from '../../core/ids';
import { price } from '../../fx/pricing';
import { isRateCurrency, midRate } from '../../fx/rates';
import { checkLimits } from '../limits';
import { addSeconds, now } from '../../core/clock';
import { transaction, type Tx } from '../../core/db';
import { effect } from '../../core/idempotency';
import { DomainError, notFound } from '../../core/errors';
import { recordEvent } from '../../events/outbox';
import { enqueue, type JobHandler } from '../../jobs/queue';
import * as customers from '../../customers/repository';
import * as platforms from '../../platform/repository';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import { depositTarget, internalAccountIn } from '../routing';
import { requireUma, sandboxCounterparty } from './address';
import { creditIncoming, type IncomingUma } from './deliver';

// POST /sandbox/uma/receive: a sandbox UMA sender pays a customer of this platform. The money
// goes to the customer's default UMA deposit account, or their internal account when none.
// When the platform has a webhook endpoint, the payment waits for its decision on the
// INCOMING_PAYMENT.PENDING webhook (200 approve, 202 decide later with /approve or /reject within
// five seconds, 403/422 reject); without one there is nobody to ask and it completes at once.
export const APPROVAL_WINDOW_SECONDS = 5;

export interface ReceiveRequest {
  senderUmaAddress: string;
  receiverUmaAddress?: string;
  customerId?: string;
  receivingCurrencyCode: string;
  receivingCurrencyAmount: bigint;
}

function planFor(row: txRepo.TransactionRow): IncomingUma {
  const src = row.source as { umaAddress: string };
  const dst = row.destination as { umaAddress?: string };
  return {
    platformId: row.platformId,
    customerId: row.customerId!,
    senderUmaAddress: src.umaAddress,
    receiverUmaAddress: dst.umaAddress ?? '',
    currency: row.receivedCurrency!,
    amount: row.receivedAmount!,
    internalAccountId: row.internalAccountId,
    externalAccountId: row.externalAccountId,
  };
}

// The sandbox sender's own platform takes its fees on its side.
const NO_FEES = { serviceFixed: 0n, serviceBps: 0n, platformFixed: 0n, platformBps: 0n, counterpartyFixed: 0n };

/**
 * What the sandbox sender pays, in its own currency ($success.eur@ pays in EUR): the receiving
 * amount at the mid-market rate of the moment, rounded up. No fees are counted here (NO_FEES).
 * Same currency: the amount itself, no rate.
 */
function senderSide(
  sending: string,
  receiving: string,
  amount: bigint,
  at: Date,
): { currency: string; amount: bigint; exchangeRate: number | null } {
  if (sending === receiving || !isRateCurrency(sending) || !isRateCurrency(receiving))
    return { currency: receiving, amount, exchangeRate: null };
  const priced = price({
    from: sending,
    to: receiving,
    rate: midRate(sending, receiving, at).rate,
    side: 'RECEIVING',
    amount,
    fees: NO_FEES,
  });
  return { currency: sending, amount: priced.totalSending, exchangeRate: priced.exchangeRate };
}

export async function sandboxReceive(platformId: string, req: ReceiveRequest) {
  const sender = requireUma(req.senderUmaAddress, 'senderUmaAddress');
  const counterparty = sandboxCounterparty(sender);
  if (!counterparty)
    throw new DomainError(
      'UMA_NOT_FOUND',
      `${sender.address} is not a sandbox sender (use $success.usd@, $success.eur@, $success.mxn@, $pending.long.usd@ or $fail.compliance.usd@ on the sandbox domain)`,
    );
  return effect(async (tx) => {
    const customer = await receivingCustomer(platformId, req, tx);
    const currency = req.receivingCurrencyCode;
    const target = await receivingAccount(platformId, customer.id, currency, tx);
    // An incoming payment is a transaction like any other: the corridor's single-transaction limits apply.
    await checkLimits(platformId, currency, currency, req.receivingCurrencyAmount, req.receivingCurrencyAmount, tx);
    const at = now();
    const sent = senderSide(counterparty.currency, currency, req.receivingCurrencyAmount, at);
    const id = newId('Transaction');
    const row = await txRepo.insert(
      {
        id,
        platformId,
        customerId: customer.id,
        platformCustomerId: customer.platformCustomerId,
        type: 'INCOMING',
        direction: 'CREDIT',
        status: 'PENDING',
        source: { sourceType: 'UMA_ADDRESS', umaAddress: sender.address, currency: sent.currency },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: customer.umaAddress, currency },
        ...target,
        sentCurrency: sent.currency,
        sentAmount: sent.amount,
        exchangeRate: sent.exchangeRate,
        receivedCurrency: currency,
        receivedAmount: req.receivingCurrencyAmount,
        fees: 0n,
        counterpartyInformation: { umaAddress: sender.address },
        // Reference: incoming transactions carry reconciliationInstructions once past CREATED.
        reference: referenceCode(id),
        scenario: counterparty.behaviour,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    await recordEvent(tx, platformId, 'INCOMING_PAYMENT.PENDING', toTransaction(row));
    return toTransaction(await afterReceived(tx, row, counterparty.behaviour));
  });
}

/** The customer paid: by customerId or receiverUmaAddress (both given: they must agree). */
async function receivingCustomer(platformId: string, req: ReceiveRequest, tx: Tx) {
  let customer = req.customerId ? await customers.findById(platformId, req.customerId, tx) : null;
  if (req.customerId && (!customer || customer.deletedAt))
    throw notFound('USER_NOT_FOUND', `Customer ${req.customerId}`);
  if (!customer && req.receiverUmaAddress) {
    const uma = requireUma(req.receiverUmaAddress, 'receiverUmaAddress');
    const [found] = await customers.customersByUmaAddress(uma.address, tx);
    if (!found || found.platformId !== platformId)
      throw new DomainError('UMA_NOT_FOUND', `No customer of this platform has the UMA address ${uma.address}`);
    customer = await customers.findById(platformId, found.id, tx);
  }
  if (!customer)
    throw new DomainError('INVALID_INPUT', 'Give receiverUmaAddress or customerId', {
      errors: [{ field: 'receiverUmaAddress', message: 'receiverUmaAddress or customerId is required' }],
    });
  if (
    req.receiverUmaAddress &&
    req.customerId &&
    requireUma(req.receiverUmaAddress).address !== customer.umaAddress.toLowerCase()
  ) {
    throw new DomainError('INVALID_INPUT', 'receiverUmaAddress is not the UMA address of customerId');
  }
  return customer;
}

/** The customer's default UMA deposit account (external) or their internal account in `currency`. */
async function receivingAccount(platformId: string, customerId: string, currency: string, tx: Tx) {
  const target = await depositTarget(platformId, customerId, tx);
  if (target.externalAccountId) {
    if (target.currencies[0] !== currency)
      throw new DomainError(
        'INVALID_CURRENCY',
        `The customer's default UMA deposit account receives ${target.currencies[0]}, not ${currency}`,
      );
    return { internalAccountId: null, externalAccountId: target.externalAccountId };
  }
  const internalAccountId = await internalAccountIn(platformId, customerId, currency, tx);
  if (!internalAccountId)
    throw new DomainError('INVALID_CURRENCY', `The customer has no internal account in ${currency}`);
  return { internalAccountId, externalAccountId: null };
}

/**
 * What happens to a payment just received: a compliance failure fails it; a platform with a
 * webhook endpoint decides on the PENDING webhook (without a decision it is rejected); a
 * long-pending sender never completes; otherwise it is credited at once.
 */
async function afterReceived(
  tx: Tx,
  row: txRepo.TransactionRow,
  behaviour: NonNullable<ReturnType<typeof sandboxCounterparty>>['behaviour'],
) {
  const at = row.createdAt;
  if (behaviour === 'COMPLIANCE_FAILED') {
    const failed = await txRepo.transition(row.id, 'fail', { failureReason: 'COMPLIANCE_REJECTED', updatedAt: at }, tx);
    await recordEvent(tx, row.platformId, 'INCOMING_PAYMENT.FAILED', toTransaction(failed!));
    return failed!;
  }
  const platform = await platforms.findById(row.platformId, tx);
  if (platform?.webhookEndpoint) {
    await enqueue(tx, {
      platformId: row.platformId,
      kind: 'incoming.approval_timeout',
      payload: { transactionId: row.id },
      runAt: addSeconds(at, 60),
    });
    return row;
  }
  if (behaviour === 'LONG_PENDING') return row; // the sender never completes
  const started = await txRepo.transition(row.id, 'start', { updatedAt: at }, tx);
  return creditIncoming(tx, planFor(started!), started!);
}

/**
 * The platform approved (webhook 200 or POST /approve): the payment completes. A long-pending
 * sender ($pending.long.*) never sends the money: its approved payment stays PROCESSING (in
 * flight from the sender) and nothing is credited.
 */
export async function approveIncoming(
  tx: Tx,
  row: txRepo.TransactionRow,
  receiverCustomerInfo?: Record<string, unknown>,
) {
  const at = now();
  const started = await txRepo.transition(
    row.id,
    'start',
    {
      awaitingApproval: false,
      approvalDeadline: null,
      updatedAt: at,
      ...(receiverCustomerInfo
        ? {
            counterpartyInformation: {
              ...((row.counterpartyInformation as object) ?? {}),
              receiverCustomerInfo,
            } as object,
          }
        : {}),
    },
    tx,
  );
  if (!started) return null;
  if (started.scenario === 'LONG_PENDING') return started;
  return creditIncoming(tx, planFor(started), started);
}

/**
 * The platform refused (webhook 403/422, POST /reject) or did not answer in time: nothing was
 * booked, so nothing is returned; the sender's side learns it from the failed payment.
 */
export async function rejectIncoming(
  tx: Tx,
  row: txRepo.TransactionRow,
  p: { failureReason?: string | null; reason?: string } = {},
) {
  const at = now();
  const rejected = await txRepo.transition(
    row.id,
    'reject',
    {
      awaitingApproval: false,
      approvalDeadline: null,
      failureReason: p.failureReason ?? null,
      updatedAt: at,
      ...(p.reason ? { platformReason: p.reason } : {}),
    },
    tx,
  );
  if (!rejected) return null;
  await recordEvent(tx, row.platformId, 'INCOMING_PAYMENT.FAILED', toTransaction(rejected));
  return rejected;
}

/** The platform answered the PENDING webhook with 202: it has the approval window to decide. */
export async function awaitDecision(tx: Tx, row: txRepo.TransactionRow) {
  const deadline = addSeconds(now(), APPROVAL_WINDOW_SECONDS);
  await txRepo.update(row.id, { awaitingApproval: true, approvalDeadline: deadline, updatedAt: now() }, tx);
  await enqueue(tx, {
    platformId: row.platformId,
    kind: 'incoming.approval_timeout',
    payload: { transactionId: row.id },
    runAt: deadline,
  });
}

/** The platform did not decide an incoming payment in time ('incoming.approval_timeout'): rejected. */
export const approvalTimeoutJob: JobHandler = async (payload) => {
  const { transactionId } = payload as { transactionId: string };
  await transaction(async (tx) => {
    const row = await txRepo.findByIdUnscoped(transactionId, tx);
    if (!row || row.status !== 'PENDING') return;
    if (row.approvalDeadline && row.approvalDeadline > now()) return;
    await rejectIncoming(tx, row, { failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
  });
};

/**
 * The platform's answer to the INCOMING_PAYMENT.PENDING webhook decides the payment (reference,
 * incoming-payment webhook): 200 approves, 202 leaves the decision to /approve or /reject within
 * the approval window, 403 rejects, 422 rejects for missing payee data. Anything else (errors,
 * timeouts) decides nothing: delivery retries, and without a decision the payment times out.
 * True when the status is one of those answers (also to a payment already decided): the webhook
 * was delivered, including a 403 or 422 that the generic delivery rule would retry.
 */
export async function answerToPendingWebhook(
  tx: Tx,
  payload: string,
  status: number | undefined,
  body: string,
): Promise<boolean> {
  if (status === undefined || !((status >= 200 && status < 300) || status === 403 || status === 422)) return false;
  const transactionId = (JSON.parse(payload) as { data?: { id?: string } }).data?.id;
  if (!transactionId) return true;
  const row = await txRepo.findByIdUnscoped(transactionId, tx);
  if (!row || row.type !== 'INCOMING' || row.status !== 'PENDING' || row.awaitingApproval) return true;
  if (status >= 200 && status < 300 && status !== 202) {
    let info: Record<string, unknown> | undefined;
    try {
      info = (JSON.parse(body) as { receiverCustomerInfo?: Record<string, unknown> }).receiverCustomerInfo;
    } catch {
      info = undefined; // an empty or non-JSON 200 still approves
    }
    await approveIncoming(tx, row, info);
  } else if (status === 202) {
    await awaitDecision(tx, row);
  } else if (status === 403) {
    await rejectIncoming(tx, row, { reason: 'refused by the platform webhook' });
  } else if (status === 422) {
    await rejectIncoming(tx, row, {
      failureReason: 'MISSING_MANDATORY_PAYEE_DATA',
      reason: 'the platform webhook asked for more information',
    });
  }
  return true;
}
