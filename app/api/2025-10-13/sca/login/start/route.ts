import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerQuery, loginStart, loginStartRequest } from '@/lib/sca/schema';
import * as login from '@/lib/sca/login';

// POST /sca/login/start – begin an SCA login with one factor (SMS_OTP sends a code)
const startScaLogin = endpoint(
  {
    method: 'POST',
    path: '/sca/login/start',
    summary: 'Start an SCA login',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    query: customerQuery,
    body: loginStartRequest,
    responses: {
      200: { description: 'SCA login started.', schema: loginStart },
      ...errors(400, 401, 403, 404, 409, 429, 503),
    },
  },
  async ({ actor, query, body }) => ok(await login.start(actor.platformId, query.customerId, body.factor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(startScaLogin);
