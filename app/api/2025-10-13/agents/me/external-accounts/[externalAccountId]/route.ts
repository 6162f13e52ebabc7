import { commandEndpoint, ok, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { externalAccount, externalAccountIdParams } from '@/lib/external-accounts/schema';

// GET /agents/me/external-accounts/{externalAccountId} – one of the customer's (404 for others')
const get = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/external-accounts/{externalAccountId}',
    summary: 'Get agent external account by ID',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: externalAccountIdParams,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: externalAccount }, ...errors(401, 403, 404) },
  },
  commands.getExternalAccount,
  ({ params }) => params,
);

// DELETE /agents/me/external-accounts/{externalAccountId} – delete one of the customer's
const remove = commandEndpoint(
  {
    method: 'DELETE',
    path: '/agents/me/external-accounts/{externalAccountId}',
    summary: 'Delete agent external account',
    tags: ['Agent Operations'],
    auth: 'agent',
    params: externalAccountIdParams,
    answer: noContent,
    responses: { 204: { description: 'External account deleted' }, ...errors(401, 403, 404, 409) },
  },
  commands.removeExternalAccount,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(get, remove);
