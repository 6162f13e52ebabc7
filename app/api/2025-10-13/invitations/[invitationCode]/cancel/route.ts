import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationCodeParams } from '@/lib/invitations/schema';
import * as commands from '@/lib/invitations/commands';

// POST /invitations/{invitationCode}/cancel – the creating platform withdraws a pending invitation
const cancelInvitation = commandEndpoint(
  {
    method: 'POST',
    path: '/invitations/{invitationCode}/cancel',
    summary: 'Cancel an UMA invitation',
    description: 'Only the platform that created the invitation may cancel it (403 otherwise). PENDING -> CANCELLED.',
    tags: ['Invitations'],
    answer: ok,
    params: invitationCodeParams,
    responses: {
      200: { description: 'Invitation cancelled successfully', schema: invitation },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.cancelInvitation,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(cancelInvitation);
