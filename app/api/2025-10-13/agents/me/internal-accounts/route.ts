import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { internalAccountList } from '@/lib/accounts/schema';
import { myInternalAccountsQuery } from '@/lib/agents/schema';

// GET /agents/me/internal-accounts – the customer's internal accounts with balances (VIEW_TRANSACTIONS)
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/internal-accounts',
    summary: "List agent's internal accounts",
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myInternalAccountsQuery,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: internalAccountList }, ...errors(400, 401, 403) },
  },
  commands.listInternalAccounts,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
