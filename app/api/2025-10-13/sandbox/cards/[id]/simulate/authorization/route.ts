import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/authorization – an authorization: decided against state, limit and funding sources; approved holds the amount (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/authorization',
    summary: 'Simulate a card authorization',
    body: authorizationRequest,
  },
  commands.authorization,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
