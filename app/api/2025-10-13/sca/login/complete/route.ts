import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { customerQuery, loginComplete, loginCompleteRequest } from '@/lib/sca/schema';

// POST /sca/login/complete – prove the started factor; opens the customer's SCA session
const completeScaLogin = commandEndpoint(
  {
    method: 'POST',
    path: '/sca/login/complete',
    summary: 'Complete an SCA login',
    tags: ['Strong Customer Authentication'],
    answer: ok,
    query: customerQuery,
    body: loginCompleteRequest,
    responses: {
      200: { description: 'SCA login completed.', schema: loginComplete },
      ...errors(400, 401, 403, 404, 409, 423),
    },
  },
  commands.completeLogin,
  ({ raw }) => ({ customerId: raw.query.customerId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(completeScaLogin);
