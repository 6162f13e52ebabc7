import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, clearingRequest, simulationResponse } from '@/lib/cards/schema';
import { simulateClearing } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/clearing – a clearing: partial, over-auth (post-hoc pull) or 0 (authorization expiry) (sandbox only)
const simulate = endpoint(
  {
    method: 'POST',
    path: '/sandbox/cards/{id}/simulate/clearing',
    summary: 'Simulate a card clearing',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    params: cardIdParams,
    body: clearingRequest,
    idempotent: true,
    answer: accepted,
    responses: {
      202: { description: 'Simulation accepted', schema: simulationResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => simulateClearing(actor.platformId, params.id, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
