import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { myTransactionsQuery } from '@/lib/agents/schema';
import { transactionList } from '@/lib/payments/transactions/schema';
import { listTransactions } from '@/lib/agents/me';

// GET /agents/me/transactions – the agent's customer's transactions (VIEW_TRANSACTIONS)
const list = endpoint(
  {
    method: 'GET',
    path: '/agents/me/transactions',
    summary: 'List agent transactions',
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myTransactionsQuery,
    responses: { 200: { description: 'Successful operation', schema: transactionList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { limit, cursor, sortOrder, startDate, endDate, ...f } }) =>
    ok(
      await listTransactions(
        actor,
        {
          ...f,
          startDate: startDate ? new Date(startDate) : undefined,
          endDate: endDate ? new Date(endDate) : undefined,
        },
        { limit, order: sortOrder, cursor },
      ),
    ),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
