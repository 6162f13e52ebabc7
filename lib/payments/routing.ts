import type { Tx } from '../core/db';
import { DomainError, invalidInput, notFound } from '../core/errors';
import * as accounts from '../accounts/service';
import { customersByUmaAddress } from '../customers/repository';
import { defaultRail, railInfo, type RailInfo } from '../rails/catalog';
import { isSandboxCounterpartyAddress, sandboxCounterparty, type UmaAddress } from './uma/address';
import { payoutScenario, type PayoutScenario } from './scenarios';
import { midRate, minorRate } from '../fx/rates';

// Where a payment goes and how it gets there, resolved once (at lookup or quote creation) and
// stored with the quote, so execution and settlement never re-decide it.
export type Route =
  | {
      kind: 'EXTERNAL';
      externalAccountId: string;
      accountType: string;
      /** The primary identifier (account number, IBAN, address...) the sandbox outcome is read from. */
      identifier: string;
      currency: string;
      rail: RailInfo['rail'];
      railSelection: 'AUTO' | 'MANUAL';
      /** The sandbox's scripted outcome; null when a real rail (or none) reports it (rail.ts). */
      scenario: PayoutScenario | null;
      ownerCustomerId: string | null;
      accountStatus: string;
    }
  | { kind: 'INTERNAL'; internalAccountId: string; currency: string; ownerCustomerId: string | null }
  | { kind: 'UMA_SANDBOX'; umaAddress: string; currency: string; scenario: PayoutScenario }
  | {
      kind: 'UMA_CUSTOMER';
      umaAddress: string;
      platformId: string;
      customerId: string;
      currencies: string[];
      currency: string;
      internalAccountId: string | null;
      externalAccountId: string | null;
    };

async function externalAccounts() {
  return import('../external-accounts/service');
}

export async function externalRoute(
  platformId: string,
  accountId: string,
  requestedRail: string | undefined,
  tx: Tx,
): Promise<Extract<Route, { kind: 'EXTERNAL' }>> {
  const account = await (await externalAccounts()).getForPayment(platformId, accountId, tx);
  if (!account) throw notFound('REFERENCE_NOT_FOUND', `External account ${accountId}`);
  if (account.status === 'INACTIVE' || account.status === 'UNDER_REVIEW') {
    throw invalidInput(`External account ${accountId} is ${account.status} and cannot receive payments`);
  }
  if (account.status === 'UNVERIFIED') {
    throw new DomainError(
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      `External account ${accountId} must pass ownership verification before it can receive payments`,
    );
  }
  let rail = defaultRail(account.currency);
  if (requestedRail) {
    const chosen = railInfo(account.currency, requestedRail);
    if (!chosen)
      throw invalidInput(`Payment rail ${requestedRail} is not available for ${account.currency} accounts`, [
        { field: 'destination.paymentRail', message: `is not a rail of ${account.currency} accounts` },
      ]);
    rail = chosen;
  }
  return {
    kind: 'EXTERNAL',
    externalAccountId: account.id,
    accountType: account.accountType,
    identifier: account.primaryIdentifier,
    currency: account.currency,
    rail: rail.rail,
    railSelection: requestedRail ? 'MANUAL' : 'AUTO',
    scenario: payoutScenario(account.primaryIdentifier),
    ownerCustomerId: account.customerId,
    accountStatus: account.status,
  };
}

/**
 * The external account a direct pull (ACH debit) draws on: a USD bank account of this platform
 * that can be used now. REFERENCE_NOT_FOUND when there is no such account; INVALID_INPUT on
 * `field` when it cannot be pulled from (another currency, inactive, under review).
 */
export async function pullRoute(
  platformId: string,
  accountId: string,
  field: string,
  tx: Tx,
): Promise<Extract<Route, { kind: 'EXTERNAL' }>> {
  const route = await externalRoute(platformId, accountId, 'ACH', tx).catch((err) => {
    if (err instanceof DomainError && err.code === 'INVALID_INPUT') {
      throw invalidInput(
        `External account ${accountId} cannot be pulled from (ACH debit, USD bank accounts only): ${err.message}`,
        [{ field, message: 'cannot be pulled from' }],
      );
    }
    throw err;
  });
  if (route.accountType !== 'USD_ACCOUNT') {
    throw invalidInput(
      `Direct pull is only available from USD bank accounts (ACH); ${accountId} is ${route.accountType}`,
      [{ field, message: 'is not a USD bank account' }],
    );
  }
  return route;
}

/** Travel-Rule threshold: about 1000 EUR may go to a wallet whose ownership is not verified yet. */
const UNVERIFIED_OWNERSHIP_LIMIT_EUR_CENTS = 100_000n;

/**
 * A destination awaiting ownership verification still receives transfers below the regulatory
 * threshold (spec: PENDING_OWNERSHIP_VERIFICATION); above it the owner must verify first.
 */
export function checkOwnershipThreshold(route: Route, receivingAmount: bigint, at: Date): void {
  if (route.kind !== 'EXTERNAL' || route.accountStatus !== 'PENDING_OWNERSHIP_VERIFICATION') return;
  // The provider's rate or, when it has none, its refusal (QUOTE_REQUEST_FAILED): the threshold
  // cannot be checked at a guessed rate.
  const toEur =
    route.currency === 'EUR'
      ? { num: 1n, den: 1n }
      : minorRate(route.currency, 'EUR', midRate(route.currency, 'EUR', at).rate);
  if ((receivingAmount * toEur.num) / toEur.den > UNVERIFIED_OWNERSHIP_LIMIT_EUR_CENTS) {
    throw new DomainError(
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      `External account ${route.externalAccountId} must pass ownership verification before receiving more than 1000 EUR (or equivalent)`,
    );
  }
}

export async function internalRoute(
  platformId: string,
  accountId: string,
  tx: Tx,
): Promise<Extract<Route, { kind: 'INTERNAL' }>> {
  const account = await accounts.findRow(platformId, accountId, tx);
  if (!account) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${accountId}`);
  if (account.status !== 'ACTIVE')
    throw invalidInput(`Internal account ${accountId} is ${account.status} and cannot receive payments`);
  return {
    kind: 'INTERNAL',
    internalAccountId: account.id,
    currency: account.currency,
    ownerCustomerId: account.customerId,
  };
}

/**
 * A UMA receiver: one of the sandbox counterparties (sandbox mode only), or a customer of any
 * platform on this service (payments between them settle inside the service). Other domains
 * would need the UMA protocol over the internet, which this installation does not reach.
 */
export async function umaRoute(uma: UmaAddress, tx: Tx): Promise<Route> {
  const sandbox = sandboxCounterparty(uma);
  if (sandbox) {
    const scenario: PayoutScenario = sandbox.behaviour === 'SUCCESS' ? 'SUCCESS' : sandbox.behaviour;
    return { kind: 'UMA_SANDBOX', umaAddress: uma.address, currency: sandbox.currency, scenario };
  }
  const [customer] = await customersByUmaAddress(uma.address, tx);
  if (customer) {
    const deposit = await depositTarget(customer.platformId, customer.id, tx);
    return {
      kind: 'UMA_CUSTOMER',
      umaAddress: uma.address,
      platformId: customer.platformId,
      customerId: customer.id,
      currencies: deposit.currencies,
      currency: deposit.currencies[0],
      internalAccountId: deposit.internalAccountId,
      externalAccountId: deposit.externalAccountId,
    };
  }
  if (isSandboxCounterpartyAddress(uma))
    throw new DomainError(
      'UMA_NOT_FOUND',
      `No receiver ${uma.address}: it is a sandbox counterparty, which answers only in sandbox mode (this installation runs in production)`,
    );
  if (isLocalDomain(uma.domain)) throw new DomainError('UMA_NOT_FOUND', `No receiver ${uma.address}`);
  throw new DomainError('LNURLP_REQUEST_FAILED', `The UMA provider of ${uma.domain} could not be reached`);
}

function isLocalDomain(domain: string): boolean {
  return domain === (process.env.CORRIDOR_SANDBOX_UMA_DOMAIN || 'sandbox.uma.money');
}

/**
 * Where an incoming UMA payment to a customer is deposited: the customer's default UMA deposit
 * external account when one is set, otherwise their primary internal account (the first
 * holding account opened for them).
 */
export async function depositTarget(platformId: string, customerId: string, tx: Tx) {
  const ext = await (await externalAccounts()).defaultUmaDepositAccount(platformId, customerId, tx);
  if (ext) return { currencies: [ext.currency], internalAccountId: null, externalAccountId: ext.id };
  const holdings = (await accounts.customerAccounts(platformId, customerId, tx)).filter(
    (a) => a.type !== 'EMBEDDED_WALLET' && a.status === 'ACTIVE',
  );
  if (!holdings.length)
    throw new DomainError('INVALID_RECEIVER', 'The receiver has no account that can receive payments');
  return { currencies: holdings.map((a) => a.currency), internalAccountId: holdings[0].id, externalAccountId: null };
}

/** For a customer receiving over UMA in a given currency: their holding account in it, if any. */
export async function internalAccountIn(
  platformId: string,
  customerId: string,
  currency: string,
  tx: Tx,
): Promise<string | null> {
  const holdings = (await accounts.customerAccounts(platformId, customerId, tx)).filter(
    (a) => a.type !== 'EMBEDDED_WALLET' && a.status === 'ACTIVE' && a.currency === currency,
  );
  return holdings[0]?.id ?? null;
}
