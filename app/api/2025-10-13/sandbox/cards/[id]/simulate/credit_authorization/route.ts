import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/credit_authorization – a credit authorization: the amount waits as pending on the funding source (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/credit_authorization',
    summary: 'Simulate a card credit authorization',
    body: authorizationRequest,
  },
  commands.creditAuthorization,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
