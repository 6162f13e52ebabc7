import { commandEndpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import * as accounts from '@/lib/external-accounts/customer-commands';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams } from '@/lib/external-accounts/schema';

// GET /customers/external-accounts/{externalAccountId} – one customer external account
const getCustomerExternalAccount = commandEndpoint(
  {
    method: 'GET',
    path: '/customers/external-accounts/{externalAccountId}',
    answer: ok,
    summary: 'Get customer external account by ID',
    tags: ['External Accounts'],
    params: externalAccountIdParams,
    responses: { 200: { description: 'Successful operation', schema: externalAccount }, ...errors(401, 403, 404) },
  },
  accounts.get,
  ({ params }) => params,
);

// DELETE /customers/external-accounts/{externalAccountId} – delete (INACTIVE); a trusted beneficiary must be untrusted first
const deleteCustomerExternalAccount = commandEndpoint(
  {
    method: 'DELETE',
    path: '/customers/external-accounts/{externalAccountId}',
    answer: noContent,
    summary: 'Delete customer external account by ID',
    tags: ['External Accounts'],
    params: externalAccountIdParams,
    responses: { 204: { description: 'External account deleted successfully' }, ...errors(401, 403, 404, 409) },
  },
  accounts.remove,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getCustomerExternalAccount, deleteCustomerExternalAccount);
