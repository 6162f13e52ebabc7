import { endpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerQuery, resetCompleteRequest, resetIdParams } from '@/lib/sca/schema';
import * as reset from '@/lib/sca/reset';

// POST /sca/factors/reset/{resetId}/complete – finish a reset once liveness passed: clears the lost factor
const completeTwoFactorReset = endpoint(
  {
    method: 'POST',
    path: '/sca/factors/reset/{resetId}/complete',
    summary: 'Complete a 2FA reset',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    params: resetIdParams,
    query: customerQuery,
    body: resetCompleteRequest,
    responses: { 204: { description: 'Reset completed.' }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, query, body }) => {
    await reset.complete(actor.platformId, query.customerId, params.resetId, body);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(completeTwoFactorReset);
