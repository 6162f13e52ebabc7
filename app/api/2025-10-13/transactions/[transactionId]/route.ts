import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { anyTransaction, transactionIdParams } from '@/lib/payments/transactions/schema';

// GET /transactions/{transactionId} – one transaction
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/transactions/{transactionId}',
    answer: ok,
    summary: 'Get transaction by ID',
    tags: ['Transactions'],
    params: transactionIdParams,
    responses: { 200: { description: 'Successful operation', schema: anyTransaction }, ...errors(401, 403, 404) },
  },
  payments.getTransaction,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get);
