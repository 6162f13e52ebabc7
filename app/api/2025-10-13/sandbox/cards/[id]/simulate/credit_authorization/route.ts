import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, authorizationRequest, simulationResponse } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/credit_authorization – a credit authorization: the amount waits as pending on the funding source (sandbox only)
const simulate = endpoint(
  {
    method: 'POST',
    path: '/sandbox/cards/{id}/simulate/credit_authorization',
    summary: 'Simulate a card credit authorization',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    params: cardIdParams,
    body: authorizationRequest,
    idempotent: true,
    answer: accepted,
    responses: {
      202: { description: 'Simulation accepted', schema: simulationResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => simulateAuthorization(actor.platformId, params.id, 'CREDIT_AUTHORIZATION', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
