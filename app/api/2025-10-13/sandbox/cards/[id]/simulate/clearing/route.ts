import { routes } from '@/lib/http/endpoint';
import { cardSimulation } from '@/lib/http/card-simulation';
import { clearingRequest } from '@/lib/cards/schema';
import * as commands from '@/lib/cards/simulation-commands';

// POST /sandbox/cards/{id}/simulate/clearing – a clearing: partial, over-auth (post-hoc pull) or 0 (authorization expiry) (sandbox only)
const simulate = cardSimulation(
  { path: '/sandbox/cards/{id}/simulate/clearing', summary: 'Simulate a card clearing', body: clearingRequest },
  commands.clearing,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(simulate);
