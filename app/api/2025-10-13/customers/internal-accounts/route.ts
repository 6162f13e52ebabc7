import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerInternalAccountsQuery, internalAccountList } from '@/lib/accounts/schema';
import * as accounts from '@/lib/accounts/service';

// GET /customers/internal-accounts – customers' internal accounts with balances from the ledger
const listCustomerInternalAccounts = endpoint(
  {
    method: 'GET',
    path: '/customers/internal-accounts',
    summary: 'List Customer internal accounts',
    tags: ['Internal Accounts'],
    permission: 'VIEW',
    query: customerInternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: internalAccountList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { limit, cursor, ...f } }) =>
    ok(
      await accounts.list(
        actor.platformId,
        { owner: 'customers', customerId: f.customerId, currency: f.currency, type: f.type },
        limit,
        cursor,
      ),
    ),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listCustomerInternalAccounts);
