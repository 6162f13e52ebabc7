import { endpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams } from '@/lib/external-accounts/schema';
import * as externalAccounts from '@/lib/external-accounts/service';

// GET /platform/external-accounts/{externalAccountId} – one platform external account
const getPlatformExternalAccount = endpoint(
  {
    method: 'GET',
    path: '/platform/external-accounts/{externalAccountId}',
    summary: 'Get platform external account by ID',
    tags: ['External Accounts'],
    permission: 'VIEW',
    params: externalAccountIdParams,
    responses: { 200: { description: 'Successful operation', schema: externalAccount }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) =>
    ok(await externalAccounts.get(actor.platformId, params.externalAccountId, { kind: 'platform' })),
);

// DELETE /platform/external-accounts/{externalAccountId} – delete (the account turns INACTIVE)
const deletePlatformExternalAccount = endpoint(
  {
    method: 'DELETE',
    path: '/platform/external-accounts/{externalAccountId}',
    summary: 'Delete platform external account by ID',
    tags: ['External Accounts'],
    permission: 'MANAGE',
    params: externalAccountIdParams,
    responses: { 204: { description: 'External account deleted successfully' }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => {
    await externalAccounts.remove(actor.platformId, params.externalAccountId, { kind: 'platform' });
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getPlatformExternalAccount, deletePlatformExternalAccount);
