import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationClaim, invitationCodeParams } from '@/lib/invitations/schema';
import * as commands from '@/lib/invitations/commands';

// POST /invitations/{invitationCode}/claim – a customer of this platform accepts an invitation
const claimInvitation = commandEndpoint(
  {
    method: 'POST',
    path: '/invitations/{invitationCode}/claim',
    summary: 'Claim an UMA invitation',
    description:
      'inviteeUma must be the UMA address of a customer of the calling platform. PENDING -> CLAIMED; the creating platform receives INVITATION.CLAIMED.',
    tags: ['Invitations'],
    answer: ok,
    params: invitationCodeParams,
    body: invitationClaim,
    responses: {
      200: { description: 'Invitation claimed successfully', schema: invitation },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.claimInvitation,
  ({ params, body }) => ({ invitationCode: params.invitationCode, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(claimInvitation);
