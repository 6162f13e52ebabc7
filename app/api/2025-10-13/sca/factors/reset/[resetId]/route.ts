import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerQuery, resetIdParams, resetStatus } from '@/lib/sca/schema';
import * as reset from '@/lib/sca/reset';

// GET /sca/factors/reset/{resetId} – poll a reset until liveness passes
const getTwoFactorResetStatus = endpoint(
  {
    method: 'GET',
    path: '/sca/factors/reset/{resetId}',
    summary: 'Get 2FA reset status',
    tags: ['Strong Customer Authentication'],
    permission: 'VIEW',
    params: resetIdParams,
    query: customerQuery,
    responses: {
      200: { description: 'The current reset status.', schema: resetStatus },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, params, query }) => ok(await reset.status(actor.platformId, query.customerId, params.resetId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getTwoFactorResetStatus);
