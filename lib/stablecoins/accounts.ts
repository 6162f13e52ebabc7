import type { Tx } from '../core/db';
import { DomainError, fieldError, notFound } from '../core/errors';
import { isId } from '../core/ids';
import * as accounts from '../accounts/service';
import * as externalAccounts from '../external-accounts/service';
import { isWallet } from '../external-accounts/rules';
import { bucketAccount, systemAccount } from '../ledger/service';
import type { StablecoinRow } from './repository';
import type { BurnRequest, MintRequest } from './schema';

// The accounts of an operation: what the API reports as its source and destination, and the
// ledger accounts its money moves between (the plan, postings.ts). A mint takes fiat in the base
// currency and delivers tokens; a burn takes tokens and pays fiat out. The provider's side is the
// outside-world account WORLD:<provider>; a provider-held balance is WORLD:<provider>_BALANCE;
// Spark wallets are WORLD:SPARK; bank rails WORLD:<rail>.
export interface PlanIn {
  currency: string;
  amount: string;
  /** Where the provider takes the funds from when it receives them. */
  from: string;
  /** Where they go back if the operation fails after that. */
  refundTo: string;
  /** An internal account's funds are held when the operation is created (from → its HELD bucket). */
  internalAccountId?: string;
}
export interface PlanOut {
  currency: string;
  amount: string;
  to: string;
  internalAccountId?: string;
}
export interface Plan {
  provider: string;
  in: PlanIn;
  out: PlanOut;
}

export interface Resolved<Api, Leg> {
  api: Api;
  leg: Leg;
  /** The bank or wallet identifier the provider is given (sandbox: unused for outcomes). */
  identifier?: string;
}

const world = (platformId: string, name: string, currency: string) =>
  systemAccount(platformId, `WORLD:${name}`, currency);

async function external(platformId: string, id: string, field: string, tx: Tx) {
  const account = await externalAccounts.getForPayment(platformId, id, tx);
  if (!account) throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
  if (account.status !== 'ACTIVE') throw fieldError(field, `External account ${id} is ${account.status}, not ACTIVE`);
  return account;
}

/** A fiat bank account in the stablecoin's base currency (ACH debits, redemption payouts). */
async function bankAccount(platformId: string, id: string, field: string, currency: string, tx: Tx) {
  const account = await external(platformId, id, field, tx);
  if (isWallet(account.accountType) || account.accountType === 'LIGHTNING')
    throw fieldError(field, `External account ${id} is a wallet; a ${currency} bank account is needed`);
  if (account.currency !== currency)
    throw new DomainError('INVALID_CURRENCY', `External account ${id} is ${account.currency}; ${currency} is needed`, {
      field,
    });
  return account;
}

/** One of the platform's own active internal accounts in `currency`, its funds held by the operation. */
async function ownInternal(platformId: string, id: string, field: string, currency: string, tx: Tx) {
  const account = await accounts.findRow(platformId, id, tx);
  if (!account) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${id}`);
  if (account.customerId !== null)
    throw fieldError(
      field,
      `Internal account ${id} belongs to a customer; issuer operations use the platform's own accounts`,
    );
  if (account.status !== 'ACTIVE') throw fieldError(field, `Internal account ${id} is ${account.status}`);
  if (account.currency !== currency)
    throw new DomainError('INVALID_CURRENCY', `Internal account ${id} is ${account.currency}; ${currency} is needed`, {
      field,
    });
  return account;
}

const heldIn = (id: string, currency: string, amount: bigint): PlanIn => ({
  currency,
  amount: amount.toString(),
  from: bucketAccount(id, 'HELD'),
  refundTo: bucketAccount(id, 'AVAILABLE'),
  internalAccountId: id,
});
const worldIn = (platformId: string, name: string, currency: string, amount: bigint): PlanIn => ({
  currency,
  amount: amount.toString(),
  from: world(platformId, name, currency),
  refundTo: world(platformId, name, currency),
});

type MintSource = MintRequest['fundingSource'];

export async function mintSource(coin: StablecoinRow, fiat: bigint, s: MintSource, tx: Tx) {
  const { platformId, baseCurrency: base } = coin;
  switch (s.type) {
    case 'WIRE':
      return { api: { type: s.type }, leg: worldIn(platformId, 'WIRE', base, fiat) };
    case 'ACH_DEBIT':
    case 'SAME_DAY_ACH_DEBIT': {
      const field = 'fundingSource.externalAccountId';
      const bank = await bankAccount(platformId, s.externalAccountId, field, base, tx);
      // The issuer funds its own mints: a customer's bank account is never debited for them.
      if (bank.customerId !== null)
        throw fieldError(field, `External account ${bank.id} belongs to a customer; debit one of the platform's own`);
      const rail = s.type === 'ACH_DEBIT' ? 'ACH' : 'SAME_DAY_ACH';
      return {
        api: { type: s.type, externalAccountId: bank.id },
        leg: worldIn(platformId, rail, base, fiat),
        identifier: bank.primaryIdentifier,
      };
    }
    case 'GRID_INTERNAL_ACCOUNT': {
      const own = await ownInternal(platformId, s.accountId, 'fundingSource.accountId', base, tx);
      return { api: { type: s.type, accountId: own.id }, leg: heldIn(own.id, base, fiat) };
    }
    case 'PROVIDER_INTERNAL_BALANCE':
      return {
        api: { type: s.type, sourceTokenIdentifier: s.sourceTokenIdentifier, cryptoNetwork: s.cryptoNetwork },
        leg: worldIn(platformId, `${coin.provider}_BALANCE`, base, fiat),
      };
  }
}

/** A mint's destination: an active Spark wallet (external) or an internal account in the token. */
export async function mintDestination(coin: StablecoinRow, amount: bigint, accountId: string, tx: Tx) {
  const field = 'destination.accountId';
  const currency = coin.symbol;
  if (isId('ExternalAccount', accountId)) {
    const wallet = await external(coin.platformId, accountId, field, tx);
    if (wallet.accountType !== 'SPARK_WALLET')
      throw fieldError(
        field,
        `External account ${accountId} is ${wallet.accountType}; ${coin.network} tokens need a SPARK_WALLET`,
      );
    return {
      api: { accountId: wallet.id },
      leg: { currency, amount: amount.toString(), to: world(coin.platformId, 'SPARK', currency) },
      identifier: wallet.primaryIdentifier,
    };
  }
  if (isId('InternalAccount', accountId)) {
    const account = await accounts.findRow(coin.platformId, accountId, tx);
    if (!account) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${accountId}`);
    if (account.status !== 'ACTIVE') throw fieldError(field, `Internal account ${accountId} is ${account.status}`);
    if (account.currency !== currency)
      throw new DomainError(
        'INVALID_CURRENCY',
        `Internal account ${accountId} is ${account.currency}; ${currency} is needed`,
        {
          field,
        },
      );
    return {
      api: { accountId: account.id },
      leg: {
        currency,
        amount: amount.toString(),
        to: bucketAccount(account.id, 'AVAILABLE'),
        internalAccountId: account.id,
      },
    };
  }
  throw fieldError(field, 'must be an ExternalAccount:<uuid> or InternalAccount:<uuid> identifier');
}

type BurnSource = BurnRequest['source'];

export async function burnSource(coin: StablecoinRow, amount: bigint, s: BurnSource, tx: Tx) {
  const { platformId, symbol } = coin;
  switch (s.type) {
    case 'EXTERNAL_ACCOUNT':
      // Sent from any wallet to the provider's deposit address (funding instructions).
      return { api: { type: s.type }, leg: worldIn(platformId, 'SPARK', symbol, amount) };
    case 'GRID_INTERNAL_ACCOUNT': {
      const own = await ownInternal(platformId, s.accountId, 'source.accountId', symbol, tx);
      return { api: { type: s.type, accountId: own.id }, leg: heldIn(own.id, symbol, amount) };
    }
    case 'PROVIDER_INTERNAL_BALANCE':
      return { api: { type: s.type }, leg: worldIn(platformId, `${coin.provider}_BALANCE`, symbol, amount) };
  }
}

const RAIL_TIMING: Record<string, string> = {
  WIRE: 'Same business day',
  ACH_CREDIT: '1-3 business days',
  SAME_DAY_ACH_CREDIT: 'Same business day',
  RTP_CREDIT: 'Within minutes',
};

export async function burnDestination(coin: StablecoinRow, fiat: bigint, d: BurnRequest['destination'], tx: Tx) {
  const bank = await bankAccount(
    coin.platformId,
    d.externalAccountId,
    'destination.externalAccountId',
    coin.baseCurrency,
    tx,
  );
  return {
    api: { accountId: bank.id, rail: d.rail },
    leg: {
      currency: coin.baseCurrency,
      amount: fiat.toString(),
      to: world(coin.platformId, d.rail, coin.baseCurrency),
    },
    identifier: bank.primaryIdentifier,
    estimatedDelivery: {
      rail: d.rail,
      amount: fiat.toString(),
      currency: coin.baseCurrency,
      timing: RAIL_TIMING[d.rail],
    },
  };
}
