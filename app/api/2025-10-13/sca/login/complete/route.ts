import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerQuery, loginComplete, loginCompleteRequest } from '@/lib/sca/schema';
import * as login from '@/lib/sca/login';

// POST /sca/login/complete – prove the started factor; opens the customer's SCA session
const completeScaLogin = endpoint(
  {
    method: 'POST',
    path: '/sca/login/complete',
    summary: 'Complete an SCA login',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    query: customerQuery,
    body: loginCompleteRequest,
    responses: {
      200: { description: 'SCA login completed.', schema: loginComplete },
      ...errors(400, 401, 403, 404, 409, 423),
    },
  },
  async ({ actor, query, body }) => ok(await login.complete(actor.platformId, query.customerId, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(completeScaLogin);
