import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { adviceRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/authorization_advice – an advice re-sizing an open authorization to a new total (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/authorization_advice',
    summary: 'Simulate a card authorization advice',
    body: adviceRequest,
  },
  commands.authorizationAdvice,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
