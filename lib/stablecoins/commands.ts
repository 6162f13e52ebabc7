import { z } from 'zod';
import { defineCommand } from '../core/command';
import * as links from './links';
import * as operations from './operations';
import {
  burnRequest,
  mintRequest,
  operationIdParams,
  operationsQuery,
  providerAccountIdParams,
  providerAccountLink,
  providerAccountsQuery,
  stablecoinIdParams,
  stablecoinRegister,
  stablecoinsQuery,
} from './schema';
import * as stablecoins from './service';

// Stablecoin issuance as commands (/stablecoins, /stablecoin-operations,
// /stablecoin-provider-accounts). Linking credentials, registering a token, minting and burning act
// at the provider, so the reference requires an Idempotency-Key on each.
export const register = defineCommand({
  name: 'stablecoins.register',
  input: stablecoinRegister,
  actors: { platform: 'MANAGE' },
  idempotency: 'required',
  run: (actor, b) => stablecoins.register(actor.platformId, b),
});

export const list = defineCommand({
  name: 'stablecoins.list',
  input: stablecoinsQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { issuanceStatus, gridOperationsStatus, provider, limit, cursor }) =>
    stablecoins.list(actor.platformId, { issuanceStatus, gridOperationsStatus, provider }, limit, cursor),
});

export const get = defineCommand({
  name: 'stablecoins.get',
  input: stablecoinIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => stablecoins.get(actor.platformId, b.stablecoinId),
});

export const mint = defineCommand({
  name: 'stablecoins.mint',
  input: z.object({ stablecoinId: z.string(), body: mintRequest }),
  actors: { platform: 'TRANSACT' },
  idempotency: 'required',
  run: (actor, b) => operations.mint(actor.platformId, b.stablecoinId, b.body),
});

export const burn = defineCommand({
  name: 'stablecoins.burn',
  input: z.object({ stablecoinId: z.string(), body: burnRequest }),
  actors: { platform: 'TRANSACT' },
  idempotency: 'required',
  run: (actor, b) => operations.burn(actor.platformId, b.stablecoinId, b.body),
});

export const listOperations = defineCommand({
  name: 'stablecoins.operations.list',
  input: stablecoinIdParams.extend(operationsQuery.shape),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { stablecoinId, operationType, limit, cursor }) =>
    operations.list(actor.platformId, stablecoinId, { operationType }, limit, cursor),
});

export const getOperation = defineCommand({
  name: 'stablecoins.operations.get',
  input: operationIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => operations.get(actor.platformId, b.stablecoinOperationId),
});

export const linkProviderAccount = defineCommand({
  name: 'stablecoins.provider-accounts.link',
  input: providerAccountLink,
  actors: { platform: 'MANAGE' },
  idempotency: 'required',
  run: (actor, b) => links.link(actor.platformId, b),
});

export const listProviderAccounts = defineCommand({
  name: 'stablecoins.provider-accounts.list',
  input: providerAccountsQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { provider, status, limit, cursor }) =>
    links.list(actor.platformId, { provider, status }, limit, cursor),
});

export const getProviderAccount = defineCommand({
  name: 'stablecoins.provider-accounts.get',
  input: providerAccountIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => links.get(actor.platformId, b.stablecoinProviderAccountId),
});
