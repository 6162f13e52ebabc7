import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transaction, transactionIdParams } from '@/lib/payments/transactions/schema';
import { getTransaction } from '@/lib/agents/me';

// GET /agents/me/transactions/{transactionId} – one of the customer's transactions (404 for others')
const get = endpoint(
  {
    method: 'GET',
    path: '/agents/me/transactions/{transactionId}',
    summary: 'Get agent transaction by ID',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: transactionIdParams,
    responses: { 200: { description: 'Successful operation', schema: transaction }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await getTransaction(actor, params.transactionId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
