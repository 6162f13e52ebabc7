import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, authorizationRequest, simulationResponse } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/credit_authorization_advice – a network-initiated credit authorization advice (sandbox only)
const simulate = endpoint(
  {
    method: 'POST',
    path: '/sandbox/cards/{id}/simulate/credit_authorization_advice',
    summary: 'Simulate a card credit authorization advice',
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
  async ({ actor, params, body }) =>
    simulateAuthorization(actor.platformId, params.id, 'CREDIT_AUTHORIZATION_ADVICE', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
