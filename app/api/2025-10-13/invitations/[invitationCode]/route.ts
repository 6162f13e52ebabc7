import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationCodeParams } from '@/lib/invitations/schema';
import * as invitations from '@/lib/invitations/service';

// GET /invitations/{invitationCode} – an invitation by its code (any platform holding the code)
const getInvitation = endpoint(
  {
    method: 'GET',
    path: '/invitations/{invitationCode}',
    summary: 'Get an UMA invitation by code',
    tags: ['Invitations'],
    permission: 'VIEW',
    params: invitationCodeParams,
    responses: {
      200: { description: 'Invitation retrieved successfully', schema: invitation },
      ...errors(401, 403, 404),
    },
  },
  async ({ params }) => ok(await invitations.get(params.invitationCode)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getInvitation);
