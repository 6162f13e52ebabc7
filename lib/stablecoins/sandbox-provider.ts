import { createHash, randomUUID } from 'node:crypto';
import { now } from '../core/clock';
import type {
  CredentialCheck,
  OperationOrder,
  OperationReport,
  ProviderCredentials,
  StablecoinProviderClient,
  TokenInfo,
} from './provider';

// The sandbox Brale: any well-formed credentials link and any token identifier registers.
// Outcomes come from documented magic values (docs-draft/stablecoins.md), read off the
// credentials, the token identifier and an operation's value in cents; time-based ones follow the
// platform's sandbox clock. It keeps no state: where an operation stands is computed from its
// creation time, so asking twice gives the same answer.
export const SANDBOX_TIMING = {
  /** A wire (mint) or an external token transfer (burn) reaches the provider. */
  fundsArriveAfter: 10,
  /** The provider pulls an ACH debit, a Grid internal account or its own balance. */
  pullAfter: 5,
  /** Issuance or payout after the funds are in. */
  completeAfter: 5,
  /** Magic 005: processing this long, then failed. */
  lateFailureAfter: 30,
  /** A token registered under review (magic 001) is provisioned this long after registration. */
  reviewSeconds: 60,
} as const;

const suffix = (s: string) => s.slice(-3);
const hash = (s: string) => createHash('sha256').update(s).digest();
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const encode = (bytes: Buffer, alphabet: string, length: number) =>
  Array.from(bytes.subarray(0, length), (b) => alphabet[b % alphabet.length]).join('');

/** The provider account the credentials belong to (stable per client id, KSUID-shaped like Brale's). */
export const sandboxAccountId = (apiClientId: string, n = 0) => encode(hash(`account:${n}:${apiClientId}`), BASE62, 27);

function verifyCredentials(
  _env: unknown,
  c: ProviderCredentials,
  purpose: 'link' | 'use',
  providerAccountId?: string,
): Promise<CredentialCheck> {
  const magic = suffix(c.apiClientSecret);
  if (magic === '002')
    return Promise.resolve({ ok: false, refusal: 'INVALID', message: 'The provider refused these API credentials' });
  if (purpose === 'use' && magic === '003')
    return Promise.resolve({
      ok: false,
      refusal: 'REVOKED',
      message: 'The provider reports these credentials revoked',
    });
  if (purpose === 'use' && magic === '004')
    return Promise.resolve({
      ok: false,
      refusal: 'INVALID',
      message: 'The provider no longer accepts these credentials',
    });
  // Sandbox credentials reach any account they name; otherwise their own (two for magic 005).
  const ids = providerAccountId
    ? [providerAccountId]
    : suffix(c.apiClientId) === '005'
      ? [sandboxAccountId(c.apiClientId, 0), sandboxAccountId(c.apiClientId, 1)]
      : [sandboxAccountId(c.apiClientId)];
  return Promise.resolve({ ok: true, providerAccountIds: ids });
}

function tokenStatusAt(providerTokenIdentifier: string, registeredAt: Date | null): TokenInfo['issuanceStatus'] {
  switch (suffix(providerTokenIdentifier)) {
    case '001':
      return registeredAt && now().getTime() - registeredAt.getTime() >= SANDBOX_TIMING.reviewSeconds * 1000
        ? 'PROVISIONED'
        : 'PENDING_REVIEW';
    case '002':
      return 'REJECTED';
    default:
      return 'PROVISIONED';
  }
}

const awaitsFunds = (o: OperationOrder) => o.sourceType === 'WIRE' || o.sourceType === 'EXTERNAL_ACCOUNT';
const valueMagic = (o: OperationOrder) => (o.fiatAmount % 1000n).toString().padStart(3, '0');

function fundingInstructions(o: OperationOrder, reference: string): Record<string, string> {
  if (o.operationType === 'MINT')
    return {
      rail: 'WIRE',
      bankName: 'Sandbox Trust Bank',
      beneficiaryName: 'Brale Sandbox Issuance',
      accountNumber: `90${encode(hash(`wire:${reference}`), '0123456789', 10)}`,
      routingNumber: '021000021',
      reference: reference.slice(-12).toUpperCase(),
      amount: o.fiatAmount.toString(),
      currency: o.baseCurrency,
    };
  return {
    rail: 'SPARK',
    network: 'SPARK',
    address: `sparkrt1${encode(hash(`deposit:${reference}`), BECH32, 32)}${encode(hash(reference), BECH32, 30)}`,
    valueType: o.providerTokenIdentifier,
    amount: o.amount.toString(),
  };
}

function operationStatus(o: OperationOrder & { createdAt: Date }): OperationReport {
  const magic = valueMagic(o);
  const elapsed = (now().getTime() - o.createdAt.getTime()) / 1000;
  const fundsAt = awaitsFunds(o) ? SANDBOX_TIMING.fundsArriveAfter : SANDBOX_TIMING.pullAfter;
  if (awaitsFunds(o) && magic === '003')
    return { state: 'AWAITING_FUNDS', providerStatus: 'awaiting_funds', checkAfterSeconds: null };
  if (elapsed < fundsAt)
    return {
      state: 'AWAITING_FUNDS',
      providerStatus: awaitsFunds(o) ? 'awaiting_funds' : 'pending',
      checkAfterSeconds: Math.ceil(fundsAt - elapsed),
    };
  // 002: refused when the provider gets to it; nothing was taken.
  if (magic === '002') return { state: 'FAILED', providerStatus: 'failed', failureReason: 'PROVIDER_TRANSFER_FAILED' };
  const doneAt = fundsAt + (magic === '005' ? SANDBOX_TIMING.lateFailureAfter : SANDBOX_TIMING.completeAfter);
  if (elapsed < doneAt)
    return { state: 'FUNDS_RECEIVED', providerStatus: 'processing', checkAfterSeconds: Math.ceil(doneAt - elapsed) };
  if (magic === '005')
    return {
      state: 'FAILED',
      providerStatus: 'failed',
      failureReason: o.operationType === 'MINT' ? 'PROVIDER_MINT_FAILED' : 'PROVIDER_PAYOUT_FAILED',
    };
  return { state: 'COMPLETED', providerStatus: 'complete' };
}

export const sandboxStablecoinProvider: StablecoinProviderClient = {
  verifyCredentials,
  lookupToken(_ctx, providerTokenIdentifier) {
    const symbol =
      providerTokenIdentifier
        .replace(/[^A-Za-z0-9]/g, '')
        .toUpperCase()
        .slice(0, 10) || 'TOKEN';
    return Promise.resolve({
      name: `${providerTokenIdentifier} (sandbox)`,
      symbol,
      baseCurrency: 'USD',
      decimals: 6,
      issuanceStatus: tokenStatusAt(providerTokenIdentifier, null),
    });
  },
  tokenStatus: (_ctx, providerTokenIdentifier, registeredAt) =>
    Promise.resolve(tokenStatusAt(providerTokenIdentifier, registeredAt)),
  createOperation(_ctx, order) {
    const providerReference = `sbx_${randomUUID().replace(/-/g, '')}`;
    const waits = awaitsFunds(order);
    return Promise.resolve({
      checkAfterSeconds:
        waits && valueMagic(order) === '003'
          ? null
          : waits
            ? SANDBOX_TIMING.fundsArriveAfter
            : SANDBOX_TIMING.pullAfter,
      providerReference,
      providerStatus: awaitsFunds(order) ? 'awaiting_funds' : 'pending',
      ...(awaitsFunds(order) ? { fundingInstructions: fundingInstructions(order, providerReference) } : {}),
    });
  },
  operationStatus: (_ctx, order) => Promise.resolve(operationStatus(order)),
  describe: () => ({
    party: 'stablecoin provider',
    adapter: 'sandbox',
    connected: false,
    detail: 'simulated Brale: operations follow the magic values and delays in README',
  }),
};
