import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { authorizationRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/financial_credit_authorization – a single-message credit, settled at once (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/financial_credit_authorization',
    summary: 'Simulate a card financial credit authorization',
    body: authorizationRequest,
  },
  commands.financialCreditAuthorization,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
