import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { customerQuery, resetStart, resetStartRequest } from '@/lib/sca/schema';

// POST /sca/factors/reset – start the liveness-gated reset of a lost factor
const startTwoFactorReset = commandEndpoint(
  {
    method: 'POST',
    path: '/sca/factors/reset',
    summary: 'Start a 2FA reset',
    tags: ['Strong Customer Authentication'],
    answer: created,
    query: customerQuery,
    body: resetStartRequest,
    responses: {
      201: { description: 'Reset initiated.', schema: resetStart },
      ...errors(400, 401, 403, 404, 409, 429, 503),
    },
  },
  commands.startReset,
  ({ raw }) => ({ customerId: raw.query.customerId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(startTwoFactorReset);
