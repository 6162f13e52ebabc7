import { randomBytes } from 'node:crypto';
import { now } from '../../core/clock';
import { currencyInfo } from '../../core/currencies';
import { isSandbox } from '../../core/mode';
import type { Tx } from '../../core/db';
import { DomainError, fieldError } from '../../core/errors';
import * as accountsRepo from '../../accounts/repository';
import * as customers from '../../customers/repository';
import type { CustomerRow } from '../../customers/repository';
import { midRate, minorRate, toSignificant, reduce } from '../../fx/rates';
import { depositDetails, depositNetworks } from '../../accounts/instructions';
import { externalRoute, internalAccountIn, internalRoute, pullRoute, type Route } from '../routing';
import type { FieldDefinition } from '../payer-data';
import type { Funding } from '../plan';
import { payoutScenario, pullScenario, type PayoutScenario } from '../scenarios';
import { findLookup } from '../uma/lookups';
import { requireUma } from '../uma/address';
import type { QuoteRequest } from './schema';

// Resolving a quote request: who pays from where, where the money goes, what the corridor allows,
// and the rate details the interface reports.
export interface Source {
  funding: Funding;
  currency: string;
  customerId: string | null;
  /** The paying customer (null for the platform itself); deleted customers cannot pay. */
  customer: CustomerRow | null;
  internalAccountId: string | null;
  /** The source internal account's row (null for real-time funding). */
  account: accountsRepo.InternalAccountRow | null;
  embeddedWallet: boolean;
  realtime: boolean;
  /** A direct pull (ACH debit) from the customer's external account; null for other sources. */
  /**
   * `scenario`: the sandbox pull's scripted failure (null: it succeeds); `scripted`: false when a
   * real rail decides (production), where nothing about the pull is known before the rail reports.
   */
  pull: { externalAccountId: string; scenario: PayoutScenario | null; scripted: boolean } | null;
}

export async function resolveSource(platformId: string, src: QuoteRequest['source'], tx: Tx): Promise<Source> {
  if (src.sourceType === 'REALTIME_FUNDING') {
    const customer = src.customerId ? await customers.findById(platformId, src.customerId, tx) : null;
    if (src.customerId && (!customer || customer.deletedAt))
      throw fieldError('source.customerId', `Customer ${src.customerId} not found`);
    const networks = depositNetworks(src.currency);
    if (currencyInfo(src.currency)?.crypto && !src.cryptoNetwork) {
      throw fieldError('source.cryptoNetwork', `cryptoNetwork is required to fund in ${src.currency}`, {
        enum: networks,
      });
    }
    // The deposit address is generated for this network: one it cannot be paid on is refused.
    if (src.cryptoNetwork !== undefined && !networks.includes(src.cryptoNetwork)) {
      throw fieldError(
        'source.cryptoNetwork',
        networks.length
          ? `${src.currency} cannot be deposited on ${src.cryptoNetwork}; one of ${networks.join(', ')}`
          : `${src.currency} is not a crypto currency: omit cryptoNetwork`,
        networks.length ? { enum: networks } : undefined,
      );
    }
    if (!depositDetails(src.currency, 'probe')) {
      throw new DomainError('INVALID_CURRENCY', `Real-time funding is not available in ${src.currency}`, {
        errors: [{ field: 'source.currency', message: 'has no real-time funding rail' }],
      });
    }
    return {
      funding: { kind: 'CLEARING', rail: realtimeRail(src.currency) },
      currency: src.currency,
      customerId: src.customerId ?? null,
      customer,
      internalAccountId: null,
      account: null,
      embeddedWallet: false,
      realtime: true,
      pull: null,
    };
  }
  const found = await accountsRepo.findWithOwner(platformId, src.accountId, tx);
  const account = found?.account;
  if (!account) return pullSource(platformId, src, tx);
  if (account.status !== 'ACTIVE')
    throw fieldError('source.accountId', `Internal account ${account.id} is ${account.status} and cannot send`);
  if (src.customerId && account.customerId && src.customerId !== account.customerId) {
    throw fieldError('source.customerId', 'does not own the source account');
  }
  let customer = found.customer;
  if (!customer && src.customerId) customer = await customers.findById(platformId, src.customerId, tx);
  if (src.customerId && (!customer || customer.deletedAt))
    throw fieldError('source.customerId', `Customer ${src.customerId} not found`);
  return {
    funding: { kind: 'INTERNAL', internalAccountId: account.id },
    currency: account.currency,
    customerId: account.customerId ?? src.customerId ?? null,
    customer,
    internalAccountId: account.id,
    account,
    embeddedWallet: account.type === 'EMBEDDED_WALLET',
    realtime: false,
    pull: null,
  };
}

/**
 * An external account as the source: the quote is funded by pulling from it (ACH debit, so USD
 * bank accounts only), like /transfer-in. While the pull is in flight the money is held in
 * CLEARING; a failed pull or a refund goes back out to the bank (WORLD:ACH).
 */
async function pullSource(
  platformId: string,
  src: Extract<QuoteRequest['source'], { sourceType: 'ACCOUNT' }>,
  tx: Tx,
): Promise<Source> {
  const route = await pullRoute(platformId, src.accountId, 'source.accountId', tx).catch((err) => {
    // createQuote answers no 404 (reference): an unknown source is invalid input on its field.
    if (err instanceof DomainError && err.code === 'REFERENCE_NOT_FOUND')
      throw fieldError(
        'source.accountId',
        `${src.accountId} is neither an internal nor an external account of this platform`,
      );
    throw err;
  });
  if (src.customerId && src.customerId !== route.ownerCustomerId)
    throw fieldError('source.customerId', 'does not own the source account');
  const customer = route.ownerCustomerId ? await customers.findById(platformId, route.ownerCustomerId, tx) : null;
  if (route.ownerCustomerId && (!customer || customer.deletedAt))
    throw fieldError('source.accountId', `The owner of ${src.accountId} no longer exists`);
  return {
    funding: { kind: 'CLEARING', rail: 'ACH' },
    currency: route.currency,
    customerId: route.ownerCustomerId,
    customer,
    internalAccountId: null,
    account: null,
    embeddedWallet: false,
    realtime: false,
    pull: {
      externalAccountId: route.externalAccountId,
      scenario: pullScenario(route.identifier),
      scripted: payoutScenario(route.identifier) !== null,
    },
  };
}

function realtimeRail(currency: string): string {
  return currency === 'USD' ? 'RTP' : currency === 'EUR' ? 'SEPA_INSTANT' : currency === 'MXN' ? 'SPEI' : 'CRYPTO';
}

/**
 * The lookup a quote names (lookupId), checked against the destination it looked up; its
 * requiredPayerDataFields bind the quote (every field listed must be supplied).
 */
async function boundLookup(
  platformId: string,
  lookupId: string,
  kind: 'UMA' | 'EXTERNAL_ACCOUNT',
  target: string,
  payer: string | null,
  tx: Tx,
) {
  const lookup = await findLookup(platformId, lookupId, tx);
  if (!lookup || lookup.kind !== kind || lookup.target !== target)
    throw fieldError('lookupId', `lookupId ${lookupId} is not a lookup of ${target}`);
  // What a receiver asks of a payer (requiredPayerDataFields, currencies) was answered for the
  // customer named in the lookup; another payer looks the receiver up for themselves.
  if (lookup.customerId && lookup.customerId !== payer)
    throw fieldError(
      'lookupId',
      `lookupId ${lookupId} was made for customer ${lookup.customerId}, not for the payer of this quote`,
    );
  if (lookup.expiresAt <= now()) throw fieldError('lookupId', 'the lookup has expired; look the receiver up again');
  return { lookup, fields: (lookup.requiredPayerDataFields ?? []) as unknown as FieldDefinition[] };
}

export interface Destination {
  route: Route;
  lookupId: string | null;
  /** What the named lookup listed in requiredPayerDataFields ([] without one). */
  lookupFields: FieldDefinition[];
}

export async function resolveDestination(
  platformId: string,
  req: QuoteRequest,
  source: Source,
  tx: Tx,
): Promise<Destination> {
  const d = req.destination;
  if (d.destinationType === 'ACCOUNT') {
    const external = d.accountId.startsWith('ExternalAccount:');
    if (!external && !d.accountId.startsWith('InternalAccount:'))
      throw fieldError('destination.accountId', 'must be an ExternalAccount or InternalAccount id');
    // Only external accounts have a receiver lookup (GET /receiver/external-account/{accountId}).
    const bound = req.lookupId
      ? await boundLookup(platformId, req.lookupId, 'EXTERNAL_ACCOUNT', d.accountId, source.customerId, tx)
      : null;
    // createQuote answers no 404 (reference): an unknown destination is invalid input, like an unknown source.
    const route = await (
      external ? externalRoute(platformId, d.accountId, d.paymentRail, tx) : internalRoute(platformId, d.accountId, tx)
    ).catch((err) => {
      if (err instanceof DomainError && err.code === 'REFERENCE_NOT_FOUND')
        throw fieldError('destination.accountId', `${d.accountId} is not an account of this platform`);
      throw err;
    });
    return { route, lookupId: bound?.lookup.id ?? null, lookupFields: bound?.fields ?? [] };
  }
  const uma = requireUma(d.umaAddress, 'destination.umaAddress');
  if (!req.lookupId) {
    throw fieldError('lookupId', 'lookupId from a prior receiver lookup is required for UMA destinations');
  }
  const { lookup, fields: lookupFields } = await boundLookup(
    platformId,
    req.lookupId,
    'UMA',
    uma.address,
    source.customerId,
    tx,
  );
  const route = lookup.resolution as unknown as Route;
  if (route.kind === 'UMA_CUSTOMER') {
    const currency = d.currency ?? route.currency;
    if (!route.currencies.includes(currency)) {
      throw new DomainError(
        'INVALID_CURRENCY',
        `${uma.address} does not receive ${currency} (receives ${route.currencies.join(', ')})`,
        { errors: [{ field: 'destination.currency', message: `must be one of ${route.currencies.join(', ')}` }] },
      );
    }
    if (route.customerId === source.customerId)
      throw new DomainError('SELF_PAYMENT', 'A customer cannot pay their own UMA address');
    // Deposit into the receiver's holding account in the chosen currency (unless the receiver
    // set a default UMA deposit external account, which fixes the currency).
    const internalAccountId = route.externalAccountId
      ? null
      : await internalAccountIn(route.platformId, route.customerId, currency, tx);
    return { route: { ...route, currency, internalAccountId }, lookupId: lookup.id, lookupFields };
  }
  // A lookup stored while this database served a sandbox instance can name a scripted
  // counterparty; a production instance pays nobody who is not there (issue 25).
  if (route.kind === 'UMA_SANDBOX' && !isSandbox()) {
    throw new DomainError(
      'INVALID_RECEIVER',
      `${uma.address} is a sandbox counterparty, which receives only in sandbox mode (this installation runs in production)`,
    );
  }
  if (d.currency && route.kind === 'UMA_SANDBOX' && d.currency !== route.currency) {
    throw new DomainError('INVALID_CURRENCY', `${uma.address} receives ${route.currency} only`, {
      errors: [{ field: 'destination.currency', message: `must be ${route.currency}` }],
    });
  }
  return { route, lookupId: lookup.id, lookupFields };
}

/** mSAT-denominated rate details, as the interface reports them (bitcoin as the common unit). */
export function rateDetailsFor(
  sending: string,
  receiving: string,
  at: Date,
  serviceFixed: bigint,
  serviceBps: bigint,
  serviceVariable: bigint,
) {
  const MSAT_PER_BTC = 100_000_000_000n;
  const sendToBtc = minorRate(sending, 'BTC', midRate(sending, 'BTC', at).rate); // sats per sending minor unit
  const btcToRecv = minorRate('BTC', receiving, midRate('BTC', receiving, at).rate); // receiving minor per sat
  const msatPerSendMinor = reduce({
    num: sendToBtc.num * (MSAT_PER_BTC / 100_000_000n) * (10_000n - serviceBps),
    den: sendToBtc.den * 10_000n,
  });
  const recvPerMsat = reduce({ num: btcToRecv.num, den: btcToRecv.den * 1000n });
  return {
    counterpartyMultiplier: toSignificant(recvPerMsat),
    counterpartyFixedFee: 0n,
    gridApiMultiplier: toSignificant(msatPerSendMinor),
    gridApiFixedFee: serviceFixed,
    gridApiVariableFeeRate: Number(serviceBps) / 10_000,
    gridApiVariableFeeAmount: serviceVariable,
  };
}

export function walletPayload(
  quoteId: string,
  source: Source,
  req: QuoteRequest,
  totalSending: bigint,
  expiresAt: Date,
): string {
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
