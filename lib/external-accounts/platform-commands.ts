import { z } from 'zod';
import { defineCommand } from '../core/command';
import * as ownership from './ownership';
import {
  ownershipChallengeRequest,
  ownershipVerifyRequest,
  platformExternalAccountCreate,
  platformExternalAccountsQuery,
  type ExternalAccountCreate,
} from './schema';
import * as externalAccounts from './service';

// The platform's own external accounts as commands (/platform/external-accounts/...): owned by the
// platform, not by any customer, so every call names the platform as the owner.
const platform = { kind: 'platform' } as const;
const accountId = z.object({ externalAccountId: z.string() });

export const createPlatformExternalAccount = defineCommand({
  name: 'platform.external-accounts.create',
  input: platformExternalAccountCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, b) =>
    externalAccounts.create(actor.platformId, { ...(b as ExternalAccountCreate), customerId: undefined }),
});

export const listPlatformExternalAccounts = defineCommand({
  name: 'platform.external-accounts.list',
  input: platformExternalAccountsQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, currency }) =>
    externalAccounts.list(actor.platformId, { owner: platform, currency }, limit, cursor),
});

export const getPlatformExternalAccount = defineCommand({
  name: 'platform.external-accounts.get',
  input: accountId,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => externalAccounts.get(actor.platformId, b.externalAccountId, platform),
});

export const removePlatformExternalAccount = defineCommand({
  name: 'platform.external-accounts.remove',
  input: accountId,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => externalAccounts.remove(actor.platformId, b.externalAccountId, platform),
});

export const startPlatformOwnershipChallenge = defineCommand({
  name: 'platform.external-accounts.challenge',
  input: accountId.extend({ body: ownershipChallengeRequest }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => ownership.startChallenge(actor.platformId, b.externalAccountId, platform, b.body.method),
});

export const verifyPlatformOwnership = defineCommand({
  name: 'platform.external-accounts.verify',
  input: accountId.extend({ body: ownershipVerifyRequest }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => ownership.verifySignature(actor.platformId, b.externalAccountId, platform, b.body),
});
