import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transaction } from '@/lib/payments/transactions/schema';
import { sendRequest } from '@/lib/sandbox/schema';
import * as commands from '@/lib/sandbox/commands';

// POST /sandbox/send – pay a real-time-funding quote's instructions (sandbox only)
const send = commandEndpoint(
  {
    method: 'POST',
    path: '/sandbox/send',
    summary: 'Simulate paying a quote',
    tags: ['Sandbox'],
    sandboxOnly: true,
    body: sendRequest,
    answer: ok,
    responses: { 200: { description: 'Funds received', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  commands.send,
  ({ raw }) => raw.body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(send);
