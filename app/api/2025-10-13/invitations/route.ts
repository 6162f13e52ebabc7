import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { invitation, invitationCreate } from '@/lib/invitations/schema';
import * as invitations from '@/lib/invitations/service';

// POST /invitations – a customer of this platform invites someone by link
const createInvitation = endpoint(
  {
    method: 'POST',
    path: '/invitations',
    summary: 'Create an UMA invitation',
    description:
      'inviterUma must be the UMA address of a customer of this platform. Needs umaDomain and webhookEndpoint configured (INVITATIONS_NOT_CONFIGURED otherwise): claims are announced by the INVITATION.CLAIMED webhook.',
    tags: ['Invitations'],
    permission: 'MANAGE',
    body: invitationCreate,
    idempotent: true,
    answer: created,
    responses: {
      201: { description: 'Invitation created successfully', schema: invitation },
      ...errors(400, 401, 403),
    },
  },
  async ({ actor, body }) => invitations.create(actor.platformId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createInvitation);
