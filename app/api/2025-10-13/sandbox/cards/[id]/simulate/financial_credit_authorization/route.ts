import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/financial_credit_authorization – a single-message credit, settled at once (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/financial_credit_authorization',
    summary: 'Simulate a card financial credit authorization',
    body: authorizationRequest,
  },
  (platformId, cardId, body) => simulateAuthorization(platformId, cardId, 'FINANCIAL_CREDIT_AUTHORIZATION', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
