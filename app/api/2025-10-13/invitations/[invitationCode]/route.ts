import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationCodeParams } from '@/lib/invitations/schema';
import * as commands from '@/lib/invitations/commands';

// GET /invitations/{invitationCode} – an invitation by its code (any platform holding the code)
const getInvitation = commandEndpoint(
  {
    method: 'GET',
    path: '/invitations/{invitationCode}',
    summary: 'Get an UMA invitation by code',
    tags: ['Invitations'],
    answer: ok,
    params: invitationCodeParams,
    responses: {
      200: { description: 'Invitation retrieved successfully', schema: invitation },
      ...errors(401, 403, 404),
    },
  },
  commands.getInvitation,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getInvitation);
