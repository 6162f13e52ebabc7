import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transaction } from '@/lib/payments/transactions/schema';
import { umaReceiveRequest } from '@/lib/sandbox/schema';
import { sandboxReceive } from '@/lib/payments/uma/receive';

// POST /sandbox/uma/receive – a sandbox UMA sender pays one of this platform's customers (sandbox only)
const receive = endpoint(
  {
    method: 'POST',
    path: '/sandbox/uma/receive',
    summary: 'Simulate an incoming UMA payment',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    body: umaReceiveRequest,
    idempotent: true,
    answer: ok,
    responses: { 200: { description: 'Payment triggered', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, body }) => sandboxReceive(actor.platformId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(receive);
