import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/financial_authorization – a single-message authorization that clears itself (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/financial_authorization',
    summary: 'Simulate a card financial authorization',
    body: authorizationRequest,
  },
  commands.financialAuthorization,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
