import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, transactionRefRequest, simulationResponse } from '@/lib/cards/schema';
import { simulateReturnReversal } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/return_reversal – reverses the latest return of a REFUNDED transaction (sandbox only)
const simulate = endpoint(
  {
    method: 'POST',
    path: '/sandbox/cards/{id}/simulate/return_reversal',
    summary: 'Simulate a card return reversal',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    params: cardIdParams,
    body: transactionRefRequest,
    idempotent: true,
    answer: accepted,
    responses: {
      202: { description: 'Simulation accepted', schema: simulationResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => simulateReturnReversal(actor.platformId, params.id, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
