import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { internalAccountList, platformInternalAccountsQuery } from '@/lib/accounts/schema';
import * as accounts from '@/lib/accounts/service';

// GET /platform/internal-accounts – the platform's own internal accounts
const listPlatformInternalAccounts = endpoint(
  {
    method: 'GET',
    path: '/platform/internal-accounts',
    summary: 'List platform internal accounts',
    tags: ['Internal Accounts'],
    permission: 'VIEW',
    query: platformInternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: internalAccountList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { limit, cursor, ...f } }) =>
    ok(await accounts.list(actor.platformId, { owner: 'platform', currency: f.currency, type: f.type }, limit, cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listPlatformInternalAccounts);
