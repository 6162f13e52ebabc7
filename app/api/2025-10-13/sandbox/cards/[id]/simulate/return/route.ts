import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, returnRequest, simulationResponse } from '@/lib/cards/schema';
import { simulateReturn } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/return – a merchant return: settled funds back to the funding source (sandbox only)
const simulate = endpoint(
  {
    method: 'POST',
    path: '/sandbox/cards/{id}/simulate/return',
    summary: 'Simulate a card return',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    params: cardIdParams,
    body: returnRequest,
    idempotent: true,
    answer: accepted,
    responses: {
      202: { description: 'Simulation accepted', schema: simulationResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => simulateReturn(actor.platformId, params.id, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
