import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { transactionList, transactionListQuery } from '@/lib/payments/transactions/schema';

// GET /transactions – filtered, cursor-paginated, newest first unless sortOrder=asc
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/transactions',
    answer: ok,
    summary: 'List transactions',
    tags: ['Transactions'],
    query: transactionListQuery,
    responses: { 200: { description: 'Successful operation', schema: transactionList }, ...errors(400, 401, 403) },
  },
  payments.listTransactions,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
