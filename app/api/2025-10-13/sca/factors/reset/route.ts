import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerQuery, resetStart, resetStartRequest } from '@/lib/sca/schema';
import * as reset from '@/lib/sca/reset';

// POST /sca/factors/reset – start the liveness-gated reset of a lost factor
const startTwoFactorReset = endpoint(
  {
    method: 'POST',
    path: '/sca/factors/reset',
    summary: 'Start a 2FA reset',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    query: customerQuery,
    body: resetStartRequest,
    responses: {
      201: { description: 'Reset initiated.', schema: resetStart },
      ...errors(400, 401, 403, 404, 409, 429, 503),
    },
  },
  async ({ actor, query, body }) => created(await reset.start(actor.platformId, query.customerId, body.factor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(startTwoFactorReset);
