import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { listCustomerAccounts } from '@/lib/accounts/commands';
import { errors } from '@/lib/http/docs';
import { customerInternalAccountsQuery, internalAccountList } from '@/lib/accounts/schema';

// GET /customers/internal-accounts – customers' internal accounts with balances from the ledger
const listCustomerInternalAccounts = commandEndpoint(
  {
    method: 'GET',
    path: '/customers/internal-accounts',
    answer: ok,
    summary: 'List Customer internal accounts',
    tags: ['Internal Accounts'],
    query: customerInternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: internalAccountList }, ...errors(400, 401, 403) },
  },
  listCustomerAccounts,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listCustomerInternalAccounts);
