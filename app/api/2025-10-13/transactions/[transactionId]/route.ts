import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { anyTransaction, transactionIdParams } from '@/lib/payments/transactions/schema';
import * as transactions from '@/lib/payments/transactions/service';

// GET /transactions/{transactionId} – one transaction
const get = endpoint(
  {
    method: 'GET',
    path: '/transactions/{transactionId}',
    summary: 'Get transaction by ID',
    tags: ['Transactions'],
    permission: 'VIEW',
    params: transactionIdParams,
    responses: { 200: { description: 'Successful operation', schema: anyTransaction }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await transactions.getAny(actor.platformId, params.transactionId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
