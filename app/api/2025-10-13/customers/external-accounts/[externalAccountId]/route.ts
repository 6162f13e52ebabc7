import { endpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams } from '@/lib/external-accounts/schema';
import * as externalAccounts from '@/lib/external-accounts/service';

// GET /customers/external-accounts/{externalAccountId} – one customer external account
const getCustomerExternalAccount = endpoint(
  {
    method: 'GET',
    path: '/customers/external-accounts/{externalAccountId}',
    summary: 'Get customer external account by ID',
    tags: ['External Accounts'],
    permission: 'VIEW',
    params: externalAccountIdParams,
    responses: { 200: { description: 'Successful operation', schema: externalAccount }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) =>
    ok(await externalAccounts.get(actor.platformId, params.externalAccountId, { kind: 'customers' })),
);

// DELETE /customers/external-accounts/{externalAccountId} – delete (INACTIVE); a trusted beneficiary must be untrusted first
const deleteCustomerExternalAccount = endpoint(
  {
    method: 'DELETE',
    path: '/customers/external-accounts/{externalAccountId}',
    summary: 'Delete customer external account by ID',
    tags: ['External Accounts'],
    permission: 'MANAGE',
    params: externalAccountIdParams,
    responses: { 204: { description: 'External account deleted successfully' }, ...errors(401, 403, 404, 409) },
  },
  async ({ actor, params }) => {
    await externalAccounts.remove(actor.platformId, params.externalAccountId, { kind: 'customers' });
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getCustomerExternalAccount, deleteCustomerExternalAccount);
