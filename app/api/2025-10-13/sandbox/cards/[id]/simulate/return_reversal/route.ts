import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { transactionRefRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/return_reversal – reverses the latest return of a REFUNDED transaction (sandbox only)
const simulate = cardSimulation(
  {
    path: '/sandbox/cards/{id}/simulate/return_reversal',
    summary: 'Simulate a card return reversal',
    body: transactionRefRequest,
  },
  commands.returnReversal,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
