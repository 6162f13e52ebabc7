import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationCreate } from '@/lib/invitations/schema';
import * as commands from '@/lib/invitations/commands';

// POST /invitations – a customer of this platform invites someone by link
const createInvitation = commandEndpoint(
  {
    method: 'POST',
    path: '/invitations',
    summary: 'Create an UMA invitation',
    description:
      'inviterUma must be the UMA address of a customer of this platform. Needs umaDomain and webhookEndpoint configured (INVITATIONS_NOT_CONFIGURED otherwise): claims are announced by the INVITATION.CLAIMED webhook.',
    tags: ['Invitations'],
    body: invitationCreate,
    answer: created,
    responses: {
      201: { description: 'Invitation created successfully', schema: invitation },
      ...errors(400, 401, 403),
    },
  },
  commands.createInvitation,
  ({ raw }) => raw.body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createInvitation);
