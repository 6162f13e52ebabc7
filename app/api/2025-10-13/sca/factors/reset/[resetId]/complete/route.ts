import { commandEndpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { customerQuery, resetCompleteRequest, resetIdParams } from '@/lib/sca/schema';

// POST /sca/factors/reset/{resetId}/complete – finish a reset once liveness passed: clears the lost factor
const completeTwoFactorReset = commandEndpoint(
  {
    method: 'POST',
    path: '/sca/factors/reset/{resetId}/complete',
    summary: 'Complete a 2FA reset',
    tags: ['Strong Customer Authentication'],
    answer: noContent,
    params: resetIdParams,
    query: customerQuery,
    body: resetCompleteRequest,
    responses: { 204: { description: 'Reset completed.' }, ...errors(400, 401, 403, 404, 409) },
  },
  commands.completeReset,
  ({ params, raw }) => ({ customerId: raw.query.customerId, resetId: params.resetId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(completeTwoFactorReset);
