import { commandEndpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams } from '@/lib/external-accounts/schema';
import * as commands from '@/lib/external-accounts/platform-commands';

// GET /platform/external-accounts/{externalAccountId} – one platform external account
const getPlatformExternalAccount = commandEndpoint(
  {
    method: 'GET',
    path: '/platform/external-accounts/{externalAccountId}',
    summary: 'Get platform external account by ID',
    tags: ['External Accounts'],
    answer: ok,
    params: externalAccountIdParams,
    responses: { 200: { description: 'Successful operation', schema: externalAccount }, ...errors(401, 403, 404) },
  },
  commands.getPlatformExternalAccount,
  ({ params }) => params,
);

// DELETE /platform/external-accounts/{externalAccountId} – delete (the account turns INACTIVE)
const deletePlatformExternalAccount = commandEndpoint(
  {
    method: 'DELETE',
    path: '/platform/external-accounts/{externalAccountId}',
    summary: 'Delete platform external account by ID',
    tags: ['External Accounts'],
    answer: noContent,
    params: externalAccountIdParams,
    responses: { 204: { description: 'External account deleted successfully' }, ...errors(401, 403, 404) },
  },
  commands.removePlatformExternalAccount,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getPlatformExternalAccount, deletePlatformExternalAccount);
