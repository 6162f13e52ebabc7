import { endpoint, ok, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams } from '@/lib/external-accounts/schema';
import { getExternalAccount, removeExternalAccount } from '@/lib/agents/me';

// GET /agents/me/external-accounts/{externalAccountId} – one of the customer's (404 for others')
const get = endpoint(
  {
    method: 'GET',
    path: '/agents/me/external-accounts/{externalAccountId}',
    summary: 'Get agent external account by ID',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: externalAccountIdParams,
    responses: { 200: { description: 'Successful operation', schema: externalAccount }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await getExternalAccount(actor, params.externalAccountId)),
);

// DELETE /agents/me/external-accounts/{externalAccountId} – delete one of the customer's
const remove = endpoint(
  {
    method: 'DELETE',
    path: '/agents/me/external-accounts/{externalAccountId}',
    summary: 'Delete agent external account',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: externalAccountIdParams,
    responses: { 204: { description: 'External account deleted' }, ...errors(401, 403, 404, 409) },
  },
  async ({ actor, params }) => {
    await removeExternalAccount(actor, params.externalAccountId);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get, remove);
