import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { customerQuery, recordEventRequest, recordEventResponse } from '@/lib/sca/schema';

// POST /sca/record-event – record a sign-in failure or password reset in the customer's login-security state
const recordSecurityEvent = commandEndpoint(
  {
    method: 'POST',
    path: '/sca/record-event',
    summary: 'Record a security event',
    tags: ['Strong Customer Authentication'],
    answer: ok,
    query: customerQuery,
    body: recordEventRequest,
    responses: {
      200: { description: 'Event recorded.', schema: recordEventResponse },
      ...errors(400, 401, 403, 404, 409, 423),
    },
  },
  commands.recordSecurityEvent,
  ({ raw }) => ({ customerId: raw.query.customerId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(recordSecurityEvent);
