import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerQuery, recordEventRequest, recordEventResponse } from '@/lib/sca/schema';
import { recordEvent } from '@/lib/sca/security';

// POST /sca/record-event – record a sign-in failure or password reset in the customer's login-security state
const recordSecurityEvent = endpoint(
  {
    method: 'POST',
    path: '/sca/record-event',
    summary: 'Record a security event',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    query: customerQuery,
    body: recordEventRequest,
    responses: {
      200: { description: 'Event recorded.', schema: recordEventResponse },
      ...errors(400, 401, 403, 404, 409, 423),
    },
  },
  async ({ actor, query, body }) => ok(await recordEvent(actor.platformId, query.customerId, body.eventType)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(recordSecurityEvent);
