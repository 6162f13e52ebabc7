import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { customerQuery, loginStart, loginStartRequest } from '@/lib/sca/schema';

// POST /sca/login/start – begin an SCA login with one factor (SMS_OTP sends a code)
const startScaLogin = commandEndpoint(
  {
    method: 'POST',
    path: '/sca/login/start',
    summary: 'Start an SCA login',
    tags: ['Strong Customer Authentication'],
    answer: ok,
    query: customerQuery,
    body: loginStartRequest,
    responses: {
      200: { description: 'SCA login started.', schema: loginStart },
      ...errors(400, 401, 403, 404, 409, 429, 503),
    },
  },
  commands.startLogin,
  ({ raw }) => ({ customerId: raw.query.customerId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(startScaLogin);
