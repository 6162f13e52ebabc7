import { z } from 'zod';
import { defineCommand } from '../core/command';
import { invitationClaim, invitationCodeParams, invitationCreate } from './schema';
import * as invitations from './service';

// UMA invitations as commands (/invitations, /invitations/{invitationCode}[/claim|/cancel]). Any
// platform holding a code may read it; creating takes an Idempotency-Key, as it always has.
export const createInvitation = defineCommand({
  name: 'invitations.create',
  input: invitationCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, b) => invitations.create(actor.platformId, b),
});

export const getInvitation = defineCommand({
  name: 'invitations.get',
  input: invitationCodeParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (_actor, b) => invitations.get(b.invitationCode),
});

export const claimInvitation = defineCommand({
  name: 'invitations.claim',
  input: invitationCodeParams.extend({ body: invitationClaim }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => invitations.claim(actor.platformId, b.invitationCode, b.body.inviteeUma),
});

export const cancelInvitation = defineCommand({
  name: 'invitations.cancel',
  input: z.object({ invitationCode: z.string() }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => invitations.cancel(actor.platformId, b.invitationCode),
});
