import { z } from 'zod';
import { defineCommand } from '../core/command';
import * as ownership from './ownership';
import {
  beneficiaryTrustConfirmRequest,
  customerExternalAccountCreate,
  customerExternalAccountsQuery,
  externalAccountIdParams,
  ownershipChallengeRequest,
  ownershipVerifyRequest,
  type ExternalAccountCreate,
} from './schema';
import * as externalAccounts from './service';
import * as trust from './trust';

// Customers' external accounts as commands (/customers/external-accounts and below): adding,
// reading and deleting them, proving ownership of a wallet, and trusting a beneficiary (SCA).
// Agents add their customer's accounts through lib/agents/commands.ts (their policy in between).
const customers = { kind: 'customers' } as const;
const trustAction = z.enum(['TRUST', 'UNTRUST']);

export const create = defineCommand({
  name: 'external-accounts.customers.create',
  input: customerExternalAccountCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, body) => externalAccounts.create(actor.platformId, body as ExternalAccountCreate),
});

export const list = defineCommand({
  name: 'external-accounts.customers.list',
  input: customerExternalAccountsQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, customerId, currency }) =>
    externalAccounts.list(actor.platformId, { owner: { kind: 'customers', customerId }, currency }, limit, cursor),
});

export const get = defineCommand({
  name: 'external-accounts.customers.get',
  input: externalAccountIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => externalAccounts.get(actor.platformId, b.externalAccountId, customers),
});

export const remove = defineCommand({
  name: 'external-accounts.customers.remove',
  input: externalAccountIdParams,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => externalAccounts.remove(actor.platformId, b.externalAccountId, customers),
});

export const startOwnershipChallenge = defineCommand({
  name: 'external-accounts.customers.ownership.challenge',
  input: externalAccountIdParams.extend(ownershipChallengeRequest.shape),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => ownership.startChallenge(actor.platformId, b.externalAccountId, customers, b.method),
});

export const verifyOwnership = defineCommand({
  name: 'external-accounts.customers.ownership.verify',
  input: externalAccountIdParams.extend({ body: ownershipVerifyRequest }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => ownership.verifySignature(actor.platformId, b.externalAccountId, customers, b.body),
});

export const startTrust = defineCommand({
  name: 'external-accounts.customers.trust.start',
  input: externalAccountIdParams.extend({ action: trustAction }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => trust.start(actor.platformId, b.externalAccountId, b.action),
});

export const confirmTrust = defineCommand({
  name: 'external-accounts.customers.trust.confirm',
  input: externalAccountIdParams.extend({ action: trustAction, body: beneficiaryTrustConfirmRequest }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => trust.confirm(actor.platformId, b.externalAccountId, b.action, b.body),
});
