import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { transactionList, transactionListQuery } from '@/lib/payments/transactions/schema';
import * as transactions from '@/lib/payments/transactions/service';

// GET /transactions – filtered, cursor-paginated, newest first unless sortOrder=asc
const list = endpoint(
  {
    method: 'GET',
    path: '/transactions',
    summary: 'List transactions',
    tags: ['Transactions'],
    permission: 'VIEW',
    query: transactionListQuery,
    responses: { 200: { description: 'Successful operation', schema: transactionList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { limit, cursor, sortOrder, startDate, endDate, ...f } }) =>
    ok(
      await transactions.list(
        actor.platformId,
        {
          ...f,
          startDate: startDate ? new Date(startDate) : undefined,
          endDate: endDate ? new Date(endDate) : undefined,
        },
        limit,
        sortOrder,
        cursor,
      ),
    ),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
