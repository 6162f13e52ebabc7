import { z } from 'zod';
import { pageQuery } from '../core/pagination';

// Stablecoin requests and responses with the reference's names (StablecoinProviderAccount*,
// Stablecoin*, StablecoinMint*/Burn*, StablecoinOperation*); the served OpenAPI document is
// generated from these.
export const stablecoinProvider = z.enum(['BRALE']);
export const providerEnvironment = z.enum(['SANDBOX', 'PRODUCTION']);
export const providerAccountStatus = z.enum(['ACTIVE', 'INVALID', 'REVOKED']);
export const issuanceStatus = z.enum(['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED']);
export const gridOperationsStatus = z.enum(['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED']);
export const stablecoinNetwork = z.enum(['SPARK']);
export const operationType = z.enum(['MINT', 'BURN']);
export const operationStatus = z.enum([
  'CREATED',
  'PENDING_FUNDING',
  'PENDING_PROVIDER',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
]);
export const payoutRail = z.enum(['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT']);

/** Printable ASCII without spaces: what a provider API credential or identifier looks like. */
const token = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');
const id = z.string().min(1).max(255);

export const providerAccountLink = z.object({
  provider: stablecoinProvider,
  apiClientId: token(255),
  apiClientSecret: token(1024),
  providerAccountId: token(255).optional(),
});

export const providerAccountsQuery = z.object({
  provider: stablecoinProvider.optional(),
  status: providerAccountStatus.optional(),
  ...pageQuery,
});

export const providerAccountIdParams = z.object({ stablecoinProviderAccountId: z.string() });

export const providerAccount = z.object({
  id: z.string(),
  provider: stablecoinProvider,
  providerAccountId: z.string(),
  providerEnvironment,
  status: providerAccountStatus,
  lastVerifiedAt: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const list = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.string().optional(),
    totalCount: z.number().optional(),
  });

export const providerAccountList = list(providerAccount);

// Spark token identifiers are bech32m strings with an `btkn` human-readable part per network
// (btkn mainnet, btknrt regtest, btknt testnet, btkns signet, btknl local).
export const sparkTokenIdentifier = z
  .string()
  .max(255)
  .regex(/^btkn(rt|t|s|l)?1[02-9ac-hj-np-z]{6,}$/, 'must be a Spark token identifier (bech32m, btkn1...)');

export const stablecoinRegister = z.object({
  providerTokenIdentifier: token(255),
  networkTokenIdentifier: sparkTokenIdentifier,
  network: stablecoinNetwork,
  stablecoinProviderAccountId: id.optional(),
});

export const stablecoinsQuery = z.object({
  issuanceStatus: issuanceStatus.optional(),
  gridOperationsStatus: gridOperationsStatus.optional(),
  provider: stablecoinProvider.optional(),
  ...pageQuery,
});

export const stablecoinIdParams = z.object({ stablecoinId: z.string() });

export const stablecoin = z.object({
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  baseCurrency: z.string(),
  network: stablecoinNetwork,
  decimals: z.number().int(),
  issuanceStatus,
  gridOperationsStatus,
  networkTokenIdentifier: z.string(),
  currency: z.string().optional(),
  provider: stablecoinProvider,
  stablecoinProviderAccountId: z.string(),
  providerEnvironment,
  providerTokenIdentifier: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const stablecoinList = list(stablecoin);

const amount = z
  .string()
  .regex(/^[0-9]+$/, 'must be a whole number of the smallest unit, as a string')
  .max(30);

export const mintFundingSource = z.discriminatedUnion('type', [
  z.object({ type: z.literal('WIRE') }),
  z.object({ type: z.literal('ACH_DEBIT'), externalAccountId: id }),
  z.object({ type: z.literal('SAME_DAY_ACH_DEBIT'), externalAccountId: id }),
  z.object({ type: z.literal('GRID_INTERNAL_ACCOUNT'), accountId: id }),
  z.object({
    type: z.literal('PROVIDER_INTERNAL_BALANCE'),
    sourceTokenIdentifier: token(255),
    cryptoNetwork: token(64),
  }),
]);

export const mintRequest = z.object({
  amount,
  fundingSource: mintFundingSource,
  destination: z.object({ accountId: id }),
  description: z.string().max(1024).optional(),
});

export const burnSource = z.discriminatedUnion('type', [
  z.object({ type: z.literal('EXTERNAL_ACCOUNT') }),
  z.object({ type: z.literal('GRID_INTERNAL_ACCOUNT'), accountId: id }),
  z.object({ type: z.literal('PROVIDER_INTERNAL_BALANCE') }),
]);

export const burnRequest = z.object({
  amount,
  source: burnSource,
  destination: z.object({ type: z.literal('EXTERNAL_ACCOUNT'), externalAccountId: id, rail: payoutRail }),
  description: z.string().max(1024).optional(),
});

export const operationsQuery = z.object({ operationType: operationType.optional(), ...pageQuery });
export const operationIdParams = z.object({ stablecoinOperationId: z.string() });

export const operation = z.object({
  id: z.string(),
  stablecoinId: z.string(),
  operationType,
  status: operationStatus,
  amount: z.string(),
  provider: stablecoinProvider,
  providerEnvironment,
  stablecoinProviderAccountId: z.string(),
  source: z
    .object({
      type: z.enum([
        'WIRE',
        'ACH_DEBIT',
        'SAME_DAY_ACH_DEBIT',
        'EXTERNAL_ACCOUNT',
        'GRID_INTERNAL_ACCOUNT',
        'PROVIDER_INTERNAL_BALANCE',
      ]),
      externalAccountId: z.string().optional(),
      accountId: z.string().optional(),
      sourceTokenIdentifier: z.string().optional(),
      cryptoNetwork: z.string().optional(),
    })
    .optional(),
  fundingInstructions: z.record(z.string(), z.string()).optional(),
  destination: z.object({ accountId: z.string(), rail: payoutRail.optional() }).optional(),
  estimatedDelivery: z
    .object({ rail: z.string(), amount: z.string(), currency: z.string(), timing: z.string() })
    .optional(),
  expiresAt: z.string().optional(),
  providerStatus: z.string().optional(),
  failureReason: z.string().optional(),
  description: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const operationList = list(operation);

export type ProviderAccountLink = z.output<typeof providerAccountLink>;
export type StablecoinRegister = z.output<typeof stablecoinRegister>;
export type MintRequest = z.output<typeof mintRequest>;
export type BurnRequest = z.output<typeof burnRequest>;
