import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { customerQuery, resetIdParams, resetStatus } from '@/lib/sca/schema';

// GET /sca/factors/reset/{resetId} – poll a reset until liveness passes
const getTwoFactorResetStatus = commandEndpoint(
  {
    method: 'GET',
    path: '/sca/factors/reset/{resetId}',
    summary: 'Get 2FA reset status',
    tags: ['Strong Customer Authentication'],
    answer: ok,
    params: resetIdParams,
    query: customerQuery,
    responses: {
      200: { description: 'The current reset status.', schema: resetStatus },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  commands.resetStatus,
  ({ params, raw }) => ({ customerId: raw.query.customerId, resetId: params.resetId }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getTwoFactorResetStatus);
