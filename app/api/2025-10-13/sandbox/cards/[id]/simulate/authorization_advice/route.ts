import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, adviceRequest, simulationResponse } from '@/lib/cards/schema';
import { simulateAdvice } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/authorization_advice – an advice re-sizing an open authorization to a new total (sandbox only)
const simulate = endpoint(
  {
    method: 'POST',
    path: '/sandbox/cards/{id}/simulate/authorization_advice',
    summary: 'Simulate a card authorization advice',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    params: cardIdParams,
    body: adviceRequest,
    idempotent: true,
    answer: accepted,
    responses: {
      202: { description: 'Simulation accepted', schema: simulationResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => simulateAdvice(actor.platformId, params.id, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
