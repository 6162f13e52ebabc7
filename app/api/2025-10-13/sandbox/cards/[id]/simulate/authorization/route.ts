import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/authorization – an authorization: decided against state, limit and funding sources; approved holds the amount (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/authorization',
    summary: 'Simulate a card authorization',
    body: authorizationRequest,
  },
  (platformId, cardId, body) => simulateAuthorization(platformId, cardId, 'AUTHORIZATION', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
