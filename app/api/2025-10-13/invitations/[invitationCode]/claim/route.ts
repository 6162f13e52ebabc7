import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationClaim, invitationCodeParams } from '@/lib/invitations/schema';
import * as invitations from '@/lib/invitations/service';

// POST /invitations/{invitationCode}/claim – a customer of this platform accepts an invitation
const claimInvitation = endpoint(
  {
    method: 'POST',
    path: '/invitations/{invitationCode}/claim',
    summary: 'Claim an UMA invitation',
    description:
      'inviteeUma must be the UMA address of a customer of the calling platform. PENDING -> CLAIMED; the creating platform receives INVITATION.CLAIMED.',
    tags: ['Invitations'],
    permission: 'MANAGE',
    params: invitationCodeParams,
    body: invitationClaim,
    responses: {
      200: { description: 'Invitation claimed successfully', schema: invitation },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) =>
    ok(await invitations.claim(actor.platformId, params.invitationCode, body.inviteeUma)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(claimInvitation);
