import { effect, effectWrite } from '../../core/idempotency';
import { newId } from '../../core/ids';
import { referenceCode } from '../../accounts/instructions';
import { addSeconds, now } from '../../core/clock';
import { db, type Tx } from '../../core/db';
import { DomainError, fieldError, invalidInput } from '../../core/errors';
import { eventRow } from '../../events/outbox';
import { isScaRegion } from '../../customers/regions';
import { requireVerified } from '../../customers/kyc';
import { midRate } from '../../fx/rates';
import { price } from '../../fx/pricing';
import { feeSchedule } from '../../fx/fees';
import { quoteLifetimeSeconds, railInfo } from '../../rails/catalog';
import type { TransactionRow } from '../transactions/repository';
import type { InternalAccountRow } from '../../accounts/repository';
import { toTransaction } from '../transactions/presenter';
import { checkOwnershipThreshold } from '../routing';
import { mergeFields, missingPayerData, requiredPayerData } from '../payer-data';
import { requireUma } from '../uma/address';
import * as repo from './repository';
import type { QuoteRow } from './repository';
import { toQuote, type Quote, type ScaState } from './presenter';
import { challengeFor, issueScaCode, sendScaCode } from './sca';
import type { QuoteRequest } from './schema';
import { checkLimits } from '../limits';
import { rateDetailsFor, resolveDestination, resolveSource, walletPayload } from './resolve';
import { executeLocked, remember } from './execute';

// POST /quotes: resolve source and destination, price the transfer with exact integers, check
// limits and payer data, then store the quote, its PENDING transaction and the event in one
// statement (no transaction needed). With immediatelyExecute, creation and execution share one
// database transaction, so a refused execution leaves no quote behind.
interface Prepared {
  transaction: TransactionRow;
  quote: QuoteRow;
  event: ReturnType<typeof eventRow>;
  status: 201 | 202;
  /** Strong Customer Authentication: the number the code goes to (the code is issued with the quote). */
  sms: { to: string } | null;
  /** The source internal account as read (null for real-time funding), for its balance event. */
  sourceAccount: InternalAccountRow | null;
}

const jsonOf = <T>(v: T) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

async function prepare(platformId: string, req: QuoteRequest, opts: { agentId?: string }, tx: Tx): Promise<Prepared> {
  const at = now();
  const source = await resolveSource(platformId, req.source, tx);
  if (req.immediatelyExecute && source.embeddedWallet) {
    throw fieldError(
      'immediatelyExecute',
      'not supported for an EMBEDDED_WALLET source: create the quote, then execute it with the wallet signature over its payloadToSign',
    );
  }
  if (req.immediatelyExecute && source.realtime) {
    throw fieldError(
      'immediatelyExecute',
      'only for internal-account and direct-pull sources: a real-time-funding quote executes when its funds arrive',
    );
  }
  const customer = source.customer;
  if (customer) requireVerified(customer);
  const { route, lookupId, lookupFields } = await resolveDestination(platformId, req, source, tx);
  const receiving = route.currency;
  if (route.kind === 'INTERNAL' && route.internalAccountId === source.internalAccountId)
    throw new DomainError('SELF_PAYMENT', 'Source and destination are the same account');
  if (route.kind === 'EXTERNAL' && receiving === source.currency && !source.realtime && !source.pull) {
    throw invalidInput(
      `Source and destination are both ${receiving}: use POST /transfer-out for same-currency transfers`,
    );
  }
  if (source.pull && receiving === source.currency) {
    throw invalidInput(
      `Source and destination are both ${receiving}: pull into an internal account with POST /transfer-in for same-currency transfers`,
    );
  }
  if (req.platformFeeOverride) {
    if (source.currency !== 'USD')
      throw fieldError('platformFeeOverride', 'platformFeeOverride is only supported when the source currency is USD');
    if (req.platformFeeOverride.platformFixedFee.currency !== source.currency) {
      throw fieldError(
        'platformFeeOverride.platformFixedFee.currency',
        `must be the source currency ${source.currency}`,
      );
    }
  }
  // What the named lookup listed and what the chosen corridor needs now (settings may have changed since).
  const missing = missingPayerData(
    mergeFields([lookupFields, await requiredPayerData(route, tx)]),
    req.senderCustomerInfo,
  );
  if (missing.length) {
    throw new DomainError(
      'MISSING_MANDATORY_USER_INFO',
      `The receiving institution requires: ${missing.map((m) => m.field).join(', ')}`,
      { errors: missing },
    );
  }
  const snapshot = midRate(source.currency, receiving, at);
  const fees = await feeSchedule({ platformId, from: source.currency, at, override: req.platformFeeOverride }, tx);
  const priced = price({
    from: source.currency,
    to: receiving,
    rate: snapshot.rate,
    side: req.lockedCurrencySide,
    amount: req.lockedCurrencyAmount,
    fees,
  });
  await checkLimits(platformId, source.currency, receiving, priced.totalSending, priced.totalReceiving, tx);
  checkOwnershipThreshold(route, priced.totalReceiving, at);

  const rail = route.kind === 'EXTERNAL' ? (railInfo(route.currency, route.rail) ?? null) : null;
  const expiresAt = addSeconds(at, quoteLifetimeSeconds(rail));
  const sca = source.realtime && customer && isScaRegion(customer.region);
  const quoteId = newId('Quote');
  const transactionId = newId('Transaction');
  const scaState: ScaState | null = sca
    ? await challengeFor(customer, req.scaFactor, expiresAt, {
        quoteId,
        amount: `${priced.totalSending} ${source.currency}`,
        destination: JSON.stringify(req.destination),
      })
    : null;
  const destination =
    req.destination.destinationType === 'ACCOUNT'
      ? {
          destinationType: 'ACCOUNT',
          accountId: req.destination.accountId,
          ...(req.destination.paymentRail ? { paymentRail: req.destination.paymentRail } : {}),
        }
      : {
          destinationType: 'UMA_ADDRESS',
          umaAddress: requireUma(req.destination.umaAddress).address,
          currency: receiving,
        };
  const sourceJson =
    req.source.sourceType === 'ACCOUNT'
      ? {
          sourceType: 'ACCOUNT',
          accountId: req.source.accountId,
          ...(source.customerId ? { customerId: source.customerId } : {}),
        }
      : {
          sourceType: 'REALTIME_FUNDING',
          currency: source.currency,
          ...(source.customerId ? { customerId: source.customerId } : {}),
          ...(req.source.cryptoNetwork ? { cryptoNetwork: req.source.cryptoNetwork } : {}),
        };
  const rateDetails = jsonOf(
    rateDetailsFor(source.currency, receiving, at, fees.serviceFixed, fees.serviceBps, priced.serviceVariableFee),
  );
  const initial = sca ? 'PENDING_AUTHORIZATION' : 'PENDING';
  const railSelectionMode = route.kind === 'EXTERNAL' ? route.railSelection : null;

  const transaction: TransactionRow = {
    id: transactionId,
    platformId,
    customerId: source.customerId,
    platformCustomerId: customer?.platformCustomerId ?? null,
    type: 'OUTGOING',
    direction: 'DEBIT',
    status: initial,
    pendingReason: null,
    awaitingApproval: false,
    approvalDeadline: null,
    source: { ...sourceJson, currency: source.currency },
    destination,
    internalAccountId: source.internalAccountId,
    // The destination's external account, else a pull source's (either finds it by account).
    externalAccountId: route.kind === 'EXTERNAL' ? route.externalAccountId : (source.pull?.externalAccountId ?? null),
    sentCurrency: source.currency,
    sentAmount: priced.totalSending,
    receivedCurrency: receiving,
    receivedAmount: priced.totalReceiving,
    fees: priced.serviceFee + priced.platformFee,
    platformFees: priced.platformFee,
    exchangeRate: priced.exchangeRate,
    rateDetails,
    quoteId,
    paymentRail: rail?.rail ?? null,
    railSelectionMode,
    expectedSettlementAt: null,
    settlementTimelineSeconds: rail ? rail.settlementSeconds : null,
    failureReason: null,
    refund: null,
    counterpartyInformation: null,
    // The same code a real-time-funding quote's payment instructions carry, so the deposit and
    // the transaction reconcile by it.
    reference: referenceCode(quoteId),
    description: req.description ?? null,
    remittanceInformation: req.remittanceInformation ?? null,
    platformReason: null,
    // A pull that fails decides before the payout's own outcome can matter.
    scenario: source.pull?.scenario ?? ('scenario' in route ? route.scenario : 'SUCCESS'),
    plan: jsonOf({ funding: source.funding, route }),
    settledAt: null,
    receiptDeliveryConfirmedAt: null,
    agentId: opts.agentId ?? null,
    createdAt: at,
    updatedAt: at,
  };
  const quote: QuoteRow = {
    id: quoteId,
    platformId,
    customerId: source.customerId,
    status: initial,
    source: sourceJson,
    sourceAccountId: source.internalAccountId,
    destination,
    destinationAccountId: req.destination.destinationType === 'ACCOUNT' ? req.destination.accountId : null,
    sendingCurrency: source.currency,
    receivingCurrency: receiving,
    lockedSide: req.lockedCurrencySide,
    lockedAmount: req.lockedCurrencyAmount,
    totalSending: priced.totalSending,
    totalReceiving: priced.totalReceiving,
    serviceFee: priced.serviceFee,
    platformFee: priced.platformFee,
    netSending: priced.netSending,
    rateNum: snapshot.rate.num,
    rateDen: snapshot.rate.den,
    exchangeRate: priced.exchangeRate,
    rateDetails,
    paymentRail: rail?.rail ?? null,
    railSelectionMode,
    lookupId,
    route: jsonOf(route),
    description: req.description ?? null,
    remittanceInformation: req.remittanceInformation ?? null,
    purposeOfPayment: req.purposeOfPayment ?? null,
    senderCustomerInfo: (req.senderCustomerInfo as QuoteRow['senderCustomerInfo']) ?? null,
    counterpartyInformation: null,
    payloadToSign: source.embeddedWallet ? walletPayload(quoteId, source, req, priced.totalSending, expiresAt) : null,
    scaChallenge: (scaState as QuoteRow['scaChallenge']) ?? null,
    transactionId,
    expiresAt,
    executedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const event = eventRow(
    platformId,
    sca ? 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION' : 'OUTGOING_PAYMENT.PENDING',
    toTransaction(transaction),
    at,
  );
  return {
    transaction,
    quote,
    event,
    status: sca ? 202 : 201,
    sms: scaState?.factor === 'SMS_OTP' ? { to: customer!.phoneNumber! } : null,
    sourceAccount: source.account,
  };
}

export async function createQuote(
  platformId: string,
  req: QuoteRequest,
  opts: { agentId?: string } = {},
): Promise<{ quote: Quote; status: 201 | 202 }> {
  if (req.scaFactor === 'TOTP') {
    throw fieldError(
      'scaFactor',
      'TOTP cannot carry the dynamic linking a payment authorization needs; use SMS_OTP or PASSKEY',
      { enum: ['SMS_OTP', 'PASSKEY'] },
    );
  }
  if (req.immediatelyExecute) {
    return effect(async (tx) => {
      const p = await prepare(platformId, req, opts, tx);
      await repo.insertWithTransaction(p, tx);
      return { quote: await executeLocked(tx, p.quote, p.transaction, p.sourceAccount), status: 201 as const };
    });
  }
  // Reads, then one write: nothing to hold open.
  const p = await prepare(platformId, req, opts, db());
  if (p.sms) {
    // Strong Customer Authentication: the quote and its code commit together, then the code is sent.
    const sms = p.sms;
    const { issued, ...result } = await effect(async (tx) => {
      await repo.insertWithTransaction(p, tx);
      const code = await issueScaCode(tx, platformId, p.quote.id, p.quote.expiresAt);
      return { quote: toQuote(p.quote), status: p.status, issued: code };
    });
    await sendScaCode(platformId, sms.to, issued.code);
    return result;
  }
  const result = await effectWrite({ quote: toQuote(p.quote), status: p.status }, (tx) =>
    repo.insertWithTransaction(p, tx),
  );
  if (p.quote.status === 'PENDING' && p.sourceAccount)
    remember({ quote: p.quote, transaction: p.transaction, sourceAccount: p.sourceAccount });
  return result;
}
