import { randomBytes } from 'node:crypto';
import { newId } from '../ids';
import { addSeconds, now } from '../clock';
import { currencyInfo } from '../currencies';
import { transaction, type Tx } from '../db';
import { ApiError, fieldError, invalidInput } from '../http/errors';
import { INT64_MAX } from '../http/fields';
import { sha256Hex } from '../auth/secrets';
import { recordEvent } from '../events/outbox';
import { enqueue } from '../jobs/queue';
import * as accounts from '../accounts/service';
import * as customers from '../customers/repository';
import { isScaRegion } from '../customers/regions';
import * as platforms from '../platform/repository';
import { midRate, minorRate, toNumber, reduce } from '../fx/rates';
import { price } from '../fx/pricing';
import { feeSchedule } from '../fx/fees';
import { depositDetails } from '../accounts/instructions';
import { quoteLifetimeSeconds, railInfo } from '../rails/catalog';
import { sendMessage } from '../notify/sender';
import * as txRepo from '../transactions/repository';
import { toTransaction } from '../transactions/presenter';
import { checkOwnershipThreshold, externalRoute, internalAccountIn, internalRoute, type Route } from '../payments/routing';
import { missingPayerData, requiredPayerData } from '../payments/payer-data';
import type { Funding } from '../payments/plan';
import { findLookup } from '../uma/lookups';
import { requireUma } from '../uma/address';
import * as repo from './repository';
import { toQuote, type Quote, type ScaState } from './presenter';
import { scaCode } from './sca';
import type { QuoteRequest } from './schema';
import { executeLocked } from './execute';

// POST /quotes: resolve source and destination, price the transfer with exact integers, check
// limits and payer data, and store the quote with its PENDING transaction, all in one database
// transaction (with immediatelyExecute, the execution joins that same transaction).
interface Source {
  funding: Funding;
  currency: string;
  customerId: string | null;
  internalAccountId: string | null;
  embeddedWallet: boolean;
  realtime: boolean;
}

async function resolveSource(platformId: string, src: QuoteRequest['source'], tx: Tx): Promise<Source> {
  if (src.sourceType === 'REALTIME_FUNDING') {
    if (src.customerId && !(await customers.findById(platformId, src.customerId, tx))) {
      throw fieldError('source.customerId', `Customer ${src.customerId} not found`);
    }
    if (currencyInfo(src.currency)?.crypto && !src.cryptoNetwork) {
      throw fieldError('source.cryptoNetwork', `cryptoNetwork is required to fund in ${src.currency}`);
    }
    if (!depositDetails(src.currency, 'probe')) {
      throw new ApiError('INVALID_CURRENCY', `Real-time funding is not available in ${src.currency}`, { errors: [{ field: 'source.currency', message: 'has no real-time funding rail' }] });
    }
    return { funding: { kind: 'CLEARING', rail: realtimeRail(src.currency) }, currency: src.currency, customerId: src.customerId ?? null, internalAccountId: null, embeddedWallet: false, realtime: true };
  }
  const account = await accounts.findRow(platformId, src.accountId, tx);
  if (!account) {
    throw fieldError('source.accountId', `${src.accountId} is not an internal account of this platform (an external account source must support direct pull; use /transfer-in for pulls)`);
  }
  if (account.status !== 'ACTIVE') throw fieldError('source.accountId', `Internal account ${account.id} is ${account.status} and cannot send`);
  if (src.customerId && account.customerId && src.customerId !== account.customerId) {
    throw fieldError('source.customerId', 'does not own the source account');
  }
  return {
    funding: { kind: 'INTERNAL', internalAccountId: account.id },
    currency: account.currency,
    customerId: account.customerId ?? src.customerId ?? null,
    internalAccountId: account.id,
    embeddedWallet: account.type === 'EMBEDDED_WALLET',
    realtime: false,
  };
}

function realtimeRail(currency: string): string {
  return currency === 'USD' ? 'RTP' : currency === 'EUR' ? 'SEPA_INSTANT' : currency === 'MXN' ? 'SPEI' : 'CRYPTO';
}

async function resolveDestination(platformId: string, req: QuoteRequest, source: Source, tx: Tx): Promise<{ route: Route; lookupId: string | null }> {
  const d = req.destination;
  if (d.destinationType === 'ACCOUNT') {
    if (d.accountId.startsWith('ExternalAccount:')) return { route: await externalRoute(platformId, d.accountId, d.paymentRail, tx), lookupId: req.lookupId ?? null };
    if (d.accountId.startsWith('InternalAccount:')) return { route: await internalRoute(platformId, d.accountId, tx), lookupId: req.lookupId ?? null };
    throw fieldError('destination.accountId', 'must be an ExternalAccount or InternalAccount id');
  }
  const uma = requireUma(d.umaAddress, 'destination.umaAddress');
  if (!req.lookupId) {
    throw fieldError('lookupId', 'lookupId from GET /receiver/uma/{receiverUmaAddress} is required for UMA destinations');
  }
  const lookup = await findLookup(platformId, req.lookupId, tx);
  if (!lookup || lookup.kind !== 'UMA' || lookup.target !== uma.address) {
    throw fieldError('lookupId', `lookupId ${req.lookupId} is not a lookup of ${uma.address}`);
  }
  if (lookup.expiresAt <= now()) throw fieldError('lookupId', 'the lookup has expired; look the receiver up again');
  const route = lookup.resolution as unknown as Route;
  if (route.kind === 'UMA_CUSTOMER') {
    const currency = d.currency ?? route.currency;
    if (!route.currencies.includes(currency)) {
      throw new ApiError('INVALID_CURRENCY', `${uma.address} does not receive ${currency} (receives ${route.currencies.join(', ')})`, { errors: [{ field: 'destination.currency', message: `must be one of ${route.currencies.join(', ')}` }] });
    }
    if (route.customerId === source.customerId) throw new ApiError('SELF_PAYMENT', 'A customer cannot pay their own UMA address');
    // Deposit into the receiver's holding account in the chosen currency (unless the receiver
    // set a default UMA deposit external account, which fixes the currency).
    const internalAccountId = route.externalAccountId ? null : await internalAccountIn(route.platformId, route.customerId, currency, tx);
    return { route: { ...route, currency, internalAccountId }, lookupId: lookup.id };
  }
  if (d.currency && route.kind === 'UMA_SANDBOX' && d.currency !== route.currency) {
    throw new ApiError('INVALID_CURRENCY', `${uma.address} receives ${route.currency} only`, { errors: [{ field: 'destination.currency', message: `must be ${route.currency}` }] });
  }
  return { route, lookupId: lookup.id };
}

async function checkLimits(platformId: string, sending: string, receiving: string, totalSending: bigint, totalReceiving: bigint, tx: Tx) {
  const limit = (await platforms.findCurrency(platformId, sending, tx)) ?? null;
  const max = limit?.maxAmount ?? INT64_MAX;
  if (totalSending > max || totalSending > INT64_MAX) {
    throw new ApiError('TRANSACTION_SIZE_LIMIT_EXCEEDED', `The sending amount ${totalSending} ${sending} exceeds the single-transaction maximum of ${max} for this corridor`, { maxAmount: max, currency: sending });
  }
  if (limit && totalSending < limit.minAmount) {
    throw new ApiError('AMOUNT_OUT_OF_RANGE', `The sending amount ${totalSending} ${sending} is below the minimum of ${limit.minAmount}`, { minAmount: limit.minAmount, currency: sending });
  }
  const recv = await platforms.findCurrency(platformId, receiving, tx);
  if (totalReceiving > INT64_MAX || (recv && totalReceiving > recv.maxAmount)) {
    throw new ApiError('TRANSACTION_SIZE_LIMIT_EXCEEDED', `The receiving amount ${totalReceiving} ${receiving} exceeds the single-transaction maximum for this corridor`, { currency: receiving });
  }
}

/** mSAT-denominated rate details, as the interface reports them (bitcoin as the common unit). */
function rateDetailsFor(sending: string, receiving: string, at: Date, serviceFixed: bigint, serviceBps: bigint, serviceVariable: bigint) {
  const MSAT_PER_BTC = 100_000_000_000n;
  const sendToBtc = minorRate(sending, 'BTC', midRate(sending, 'BTC', at).rate); // sats per sending minor unit
  const btcToRecv = minorRate('BTC', receiving, midRate('BTC', receiving, at).rate); // receiving minor per sat
  const msatPerSendMinor = reduce({ num: sendToBtc.num * (MSAT_PER_BTC / 100_000_000n) * (10_000n - serviceBps), den: sendToBtc.den * 10_000n });
  const recvPerMsat = reduce({ num: btcToRecv.num, den: btcToRecv.den * 1000n });
  return {
    counterpartyMultiplier: toNumber(recvPerMsat, 12) || toNumber(recvPerMsat, 18),
    counterpartyFixedFee: 0n,
    gridApiMultiplier: toNumber(msatPerSendMinor, 8),
    gridApiFixedFee: serviceFixed,
    gridApiVariableFeeRate: Number(serviceBps) / 10_000,
    gridApiVariableFeeAmount: serviceVariable,
  };
}

function walletPayload(quoteId: string, source: Source, req: QuoteRequest, totalSending: bigint, expiresAt: Date): string {
  // The exact bytes the wallet holder signs; bound to this quote, amount and destination.
  return JSON.stringify({
    type: 'EMBEDDED_WALLET_PAYMENT',
    quoteId,
    sourceAccountId: source.internalAccountId,
    amount: totalSending.toString(),
    currency: source.currency,
    destination: req.destination,
    expiresAt: expiresAt.toISOString(),
    nonce: randomBytes(16).toString('hex'),
  });
}

export async function createQuote(platformId: string, req: QuoteRequest, opts: { agentId?: string } = {}): Promise<{ quote: Quote; status: 201 | 202 }> {
  if (req.scaFactor === 'TOTP') {
    throw fieldError('scaFactor', 'TOTP cannot carry the dynamic linking a payment authorization needs; use SMS_OTP or PASSKEY', { enum: ['SMS_OTP', 'PASSKEY'] });
  }
  const out = await transaction(async (tx) => {
    const at = now();
    const source = await resolveSource(platformId, req.source, tx);
    if (req.immediatelyExecute && source.embeddedWallet) {
      throw fieldError('immediatelyExecute', 'not supported for an EMBEDDED_WALLET source: create the quote, then execute it with the wallet signature over its payloadToSign');
    }
    if (req.immediatelyExecute && source.realtime) {
      throw fieldError('immediatelyExecute', 'only for internal-account sources: a real-time-funding quote executes when its funds arrive');
    }
    let customer = source.customerId ? await customers.findById(platformId, source.customerId, tx) : null;
    if (customer && customer.deletedAt) customer = null;
    if (source.customerId && !customer) throw fieldError('source.customerId', 'customer not found or deleted');
    if (customer) {
      const status = customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus;
      if (status !== 'APPROVED') throw new ApiError('USER_NOT_READY', `Customer ${customer.id} cannot send payments until verification is APPROVED (it is ${status})`);
    }
    const { route, lookupId } = await resolveDestination(platformId, req, source, tx);
    const receiving = route.currency;
    if (route.kind === 'INTERNAL' && route.internalAccountId === source.internalAccountId) throw new ApiError('SELF_PAYMENT', 'Source and destination are the same account');
    if (route.kind === 'EXTERNAL' && receiving === source.currency && !source.realtime) {
      throw invalidInput(`Source and destination are both ${receiving}: use POST /transfer-out for same-currency transfers`);
    }
    if (req.platformFeeOverride) {
      if (source.currency !== 'USD') throw fieldError('platformFeeOverride', 'platformFeeOverride is only supported when the source currency is USD');
      if (req.platformFeeOverride.platformFixedFee.currency !== source.currency) {
        throw fieldError('platformFeeOverride.platformFixedFee.currency', `must be the source currency ${source.currency}`);
      }
    }
    const missing = missingPayerData(await requiredPayerData(route, tx), req.senderCustomerInfo);
    if (missing.length) {
      throw new ApiError('MISSING_MANDATORY_USER_INFO', `The receiving institution requires: ${missing.map((m) => m.field).join(', ')}`, { errors: missing });
    }
    const snapshot = midRate(source.currency, receiving, at);
    const fees = await feeSchedule({ platformId, from: source.currency, at, override: req.platformFeeOverride }, tx);
    const priced = price({ from: source.currency, to: receiving, rate: snapshot.rate, side: req.lockedCurrencySide, amount: req.lockedCurrencyAmount, fees });
    await checkLimits(platformId, source.currency, receiving, priced.totalSending, priced.totalReceiving, tx);
    checkOwnershipThreshold(route, priced.totalReceiving, at);

    const rail = route.kind === 'EXTERNAL' ? railInfo(route.currency, route.rail) ?? null : null;
    const expiresAt = addSeconds(at, quoteLifetimeSeconds(rail));
    const sca = source.realtime && customer && isScaRegion(customer.region);
    if (sca && req.scaFactor === 'PASSKEY') {
      throw fieldError('scaFactor', 'the customer has no PASSKEY factor enrolled for Strong Customer Authentication; use SMS_OTP', { enum: ['SMS_OTP'] });
    }
    if (sca && !customer?.phoneNumber) throw new ApiError('USER_NOT_READY', 'Strong Customer Authentication by SMS needs the customer phone number on file');
    const quoteId = newId('Quote');
    const transactionId = newId('Transaction');
    const code = sca ? scaCode() : null;
    const scaState: ScaState | null = sca
      ? { id: newId('Challenge'), expiresAt: expiresAt.toISOString(), factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'PAYOUT', codeHash: sha256Hex(`${quoteId}:${code}`), attempts: 5 }
      : null;
    const destinationJson =
      req.destination.destinationType === 'ACCOUNT'
        ? { destinationType: 'ACCOUNT', accountId: req.destination.accountId, ...(req.destination.paymentRail ? { paymentRail: req.destination.paymentRail } : {}) }
        : { destinationType: 'UMA_ADDRESS', umaAddress: requireUma(req.destination.umaAddress).address, currency: receiving };
    const sourceJson =
      req.source.sourceType === 'ACCOUNT'
        ? { sourceType: 'ACCOUNT', accountId: req.source.accountId, ...(source.customerId ? { customerId: source.customerId } : {}) }
        : { sourceType: 'REALTIME_FUNDING', currency: source.currency, ...(source.customerId ? { customerId: source.customerId } : {}), ...(req.source.cryptoNetwork ? { cryptoNetwork: req.source.cryptoNetwork } : {}) };
    const rateDetails = rateDetailsFor(source.currency, receiving, at, fees.serviceFixed, fees.serviceBps, priced.serviceVariableFee);
    const initial = sca ? 'PENDING_AUTHORIZATION' : 'PENDING';

    const txnRow = await txRepo.insert(
      {
        id: transactionId,
        platformId,
        customerId: source.customerId,
        platformCustomerId: customer?.platformCustomerId ?? null,
        type: 'OUTGOING',
        direction: 'DEBIT',
        status: initial,
        source: { ...sourceJson, currency: source.currency },
        destination: destinationJson,
        internalAccountId: source.internalAccountId,
        externalAccountId: route.kind === 'EXTERNAL' ? route.externalAccountId : null,
        sentCurrency: source.currency,
        sentAmount: priced.totalSending,
        receivedCurrency: receiving,
        receivedAmount: priced.totalReceiving,
        fees: priced.serviceFee + priced.platformFee,
        platformFees: priced.platformFee,
        exchangeRate: priced.exchangeRate,
        rateDetails: JSON.parse(JSON.stringify(rateDetails, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))),
        quoteId,
        paymentRail: rail?.rail ?? null,
        railSelectionMode: route.kind === 'EXTERNAL' ? route.railSelection : null,
        settlementTimelineSeconds: rail ? rail.settlementSeconds : null,
        reference: `CR${quoteId.slice(6, 16).toUpperCase().replace(/-/g, '')}`,
        description: req.description ?? null,
        remittanceInformation: req.remittanceInformation ?? null,
        scenario: 'scenario' in route ? route.scenario : 'SUCCESS',
        plan: { funding: source.funding, route } as object,
        agentId: opts.agentId ?? null,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    const quoteRow = await repo.insert(
      {
        id: quoteId,
        platformId,
        customerId: source.customerId,
        status: initial,
        source: sourceJson,
        sourceAccountId: source.internalAccountId,
        destination: destinationJson,
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
        rateDetails: JSON.parse(JSON.stringify(rateDetails, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))),
        paymentRail: rail?.rail ?? null,
        railSelectionMode: route.kind === 'EXTERNAL' ? route.railSelection : null,
        lookupId,
        route: route as object,
        description: req.description ?? null,
        remittanceInformation: req.remittanceInformation ?? null,
        purposeOfPayment: req.purposeOfPayment ?? null,
        senderCustomerInfo: (req.senderCustomerInfo as object) ?? undefined,
        payloadToSign: source.embeddedWallet ? walletPayload(quoteId, source, req, priced.totalSending, expiresAt) : null,
        scaChallenge: (scaState as object | null) ?? undefined,
        transactionId,
        expiresAt,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    await recordEvent(tx, platformId, sca ? 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION' : 'OUTGOING_PAYMENT.PENDING', toTransaction(txnRow));
    await enqueue(tx, { platformId, kind: 'quote.expire', payload: { quoteId }, runAt: expiresAt });
    if (req.immediatelyExecute) {
      const executed = await executeLocked(tx, quoteRow);
      return { quote: executed, status: 201 as const, sms: null };
    }
    return { quote: toQuote(quoteRow), status: (sca ? 202 : 201) as 201 | 202, sms: sca && code ? { to: customer!.phoneNumber!, code } : null };
  });
  if (out.sms) {
    await sendMessage({ platformId, channel: 'SMS', to: out.sms.to, text: `Your payment authorization code is ${out.sms.code}`, purpose: 'SCA_PAYMENT' });
  }
  return { quote: out.quote, status: out.status };
}
