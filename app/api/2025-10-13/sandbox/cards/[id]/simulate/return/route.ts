import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { returnRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/return – a merchant return: settled funds back to the funding source (sandbox only)
const simulate = cardSimulation(
  { path: '/sandbox/cards/{id}/simulate/return', summary: 'Simulate a card return', body: returnRequest },
  commands.cardReturn,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
