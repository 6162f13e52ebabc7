import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { myTransactionsQuery } from '@/lib/agents/schema';
import { transactionList } from '@/lib/payments/transactions/schema';

// GET /agents/me/transactions – the agent's customer's transactions (VIEW_TRANSACTIONS)
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/transactions',
    summary: 'List agent transactions',
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myTransactionsQuery,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: transactionList }, ...errors(400, 401, 403) },
  },
  commands.listTransactions,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
