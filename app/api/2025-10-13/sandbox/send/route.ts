import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transaction } from '@/lib/payments/transactions/schema';
import { sendRequest } from '@/lib/sandbox/schema';
import { sandboxSend } from '@/lib/sandbox/send';

// POST /sandbox/send – pay a real-time-funding quote's instructions (sandbox only)
const send = endpoint(
  {
    method: 'POST',
    path: '/sandbox/send',
    summary: 'Simulate paying a quote',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    body: sendRequest,
    idempotent: true,
    answer: ok,
    responses: { 200: { description: 'Funds received', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, body }) => sandboxSend(actor.platformId, body),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(send);
