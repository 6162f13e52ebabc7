import { accepted, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { cardIdParams, balanceInquiryRequest, simulationResponse } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/balance_inquiry – a balance inquiry (a 0-amount authorization) (sandbox only)
const simulate = endpoint(
  {
    method: 'POST',
    path: '/sandbox/cards/{id}/simulate/balance_inquiry',
    summary: 'Simulate a card balance inquiry',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    params: cardIdParams,
    body: balanceInquiryRequest,
    idempotent: true,
    answer: accepted,
    responses: {
      202: { description: 'Simulation accepted', schema: simulationResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => simulateAuthorization(actor.platformId, params.id, 'BALANCE_INQUIRY', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
