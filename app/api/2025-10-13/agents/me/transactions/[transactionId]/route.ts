import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { transaction, transactionIdParams } from '@/lib/payments/transactions/schema';

// GET /agents/me/transactions/{transactionId} – one of the customer's transactions (404 for others')
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/transactions/{transactionId}',
    summary: 'Get agent transaction by ID',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: transactionIdParams,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: transaction }, ...errors(401, 403, 404) },
  },
  commands.getTransaction,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
