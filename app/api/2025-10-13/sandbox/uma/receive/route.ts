import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transaction } from '@/lib/payments/transactions/schema';
import { umaReceiveRequest } from '@/lib/sandbox/schema';
import * as commands from '@/lib/sandbox/commands';

// POST /sandbox/uma/receive – a sandbox UMA sender pays one of this platform's customers (sandbox only)
const receive = commandEndpoint(
  {
    method: 'POST',
    path: '/sandbox/uma/receive',
    summary: 'Simulate an incoming UMA payment',
    tags: ['Sandbox'],
    sandboxOnly: true,
    body: umaReceiveRequest,
    answer: ok,
    responses: { 200: { description: 'Payment triggered', schema: transaction }, ...errors(400, 401, 403, 404) },
  },
  commands.umaReceive,
  ({ raw }) => raw.body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(receive);
