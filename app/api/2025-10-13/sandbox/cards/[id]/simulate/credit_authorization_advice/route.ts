import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import { simulateAuthorization } from '@/lib/cards/simulate';

// POST /sandbox/cards/{id}/simulate/credit_authorization_advice – a network-initiated credit authorization advice (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/credit_authorization_advice',
    summary: 'Simulate a card credit authorization advice',
    body: authorizationRequest,
  },
  (platformId, cardId, body) => simulateAuthorization(platformId, cardId, 'CREDIT_AUTHORIZATION_ADVICE', body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
