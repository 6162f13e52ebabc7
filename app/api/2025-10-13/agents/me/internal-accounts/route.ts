import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { internalAccountList } from '@/lib/accounts/schema';
import { myInternalAccountsQuery } from '@/lib/agents/schema';
import { listInternalAccounts } from '@/lib/agents/me';

// GET /agents/me/internal-accounts – the customer's internal accounts with balances (VIEW_TRANSACTIONS)
const list = endpoint(
  {
    method: 'GET',
    path: '/agents/me/internal-accounts',
    summary: "List agent's internal accounts",
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myInternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: internalAccountList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => ok(await listInternalAccounts(actor, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list);
