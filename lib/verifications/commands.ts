import { z } from 'zod';
import { defineCommand } from '../core/command';
import { createKycLink } from './kyc-link';
import { kycLinkCreate, verificationCreate, verificationIdParams, verificationListQuery } from './schema';
import * as verifications from './service';

// KYC/KYB verifications as commands (/verifications, /customers/{customerId}/kyc-link). Staff
// decide a verification under review through lib/staff/commands.ts (decideReview).
export const submit = defineCommand({
  name: 'verifications.submit',
  input: verificationCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => verifications.submit(actor.platformId, b.customerId),
});

export const list = defineCommand({
  name: 'verifications.list',
  input: verificationListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, q) =>
    verifications.list(actor.platformId, { customerId: q.customerId, status: q.verificationStatus }, q.limit, q.cursor),
});

export const get = defineCommand({
  name: 'verifications.get',
  input: verificationIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => verifications.get(actor.platformId, b.verificationId),
});

/** A hosted, single-use link: a repeat of the key answers the same link instead of minting another. */
export const createLink = defineCommand({
  name: 'verifications.kyc-link',
  input: z.object({ customerId: z.string(), body: kycLinkCreate }),
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, b) => createKycLink(actor.platformId, b.customerId, b.body.redirectUri),
});
