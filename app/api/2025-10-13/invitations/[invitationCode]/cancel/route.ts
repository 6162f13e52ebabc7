import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationCodeParams } from '@/lib/invitations/schema';
import * as invitations from '@/lib/invitations/service';

// POST /invitations/{invitationCode}/cancel – the creating platform withdraws a pending invitation
const cancelInvitation = endpoint(
  {
    method: 'POST',
    path: '/invitations/{invitationCode}/cancel',
    summary: 'Cancel an UMA invitation',
    description: 'Only the platform that created the invitation may cancel it (403 otherwise). PENDING -> CANCELLED.',
    tags: ['Invitations'],
    permission: 'MANAGE',
    params: invitationCodeParams,
    responses: {
      200: { description: 'Invitation cancelled successfully', schema: invitation },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params }) => ok(await invitations.cancel(actor.platformId, params.invitationCode)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(cancelInvitation);
