import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/financial_authorization – a single-message authorization that clears itself (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/financial_authorization',
    summary: 'Simulate a card financial authorization',
    body: authorizationRequest,
  },
  (platformId, cardId, body) => simulateAuthorization(platformId, cardId, 'FINANCIAL_AUTHORIZATION', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
