import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/credit_authorization_advice – a network-initiated credit authorization advice (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/credit_authorization_advice',
    summary: 'Simulate a card credit authorization advice',
    body: authorizationRequest,
  },
  commands.creditAuthorizationAdvice,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
