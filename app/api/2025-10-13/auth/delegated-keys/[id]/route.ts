import { endpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { delegatedKey, idParams } from '@/lib/wallet-auth/schema';
import * as delegatedKeys from '@/lib/wallet-auth/delegated-keys';

// GET /auth/delegated-keys/{id} – one delegated key (VIEW)
const getDelegatedKey = endpoint(
  {
    method: 'GET',
    path: '/auth/delegated-keys/{id}',
    summary: 'Get a delegated signing key',
    tags: ['Embedded Wallet Auth'],
    permission: 'VIEW',
    params: idParams,
    responses: { 200: { description: 'Successful operation', schema: delegatedKey }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await delegatedKeys.get(actor.platformId, params.id)),
);

// DELETE /auth/delegated-keys/{id} – revoke an ACTIVE key; its custodied private key is erased (MANAGE)
const revokeDelegatedKey = endpoint(
  {
    method: 'DELETE',
    path: '/auth/delegated-keys/{id}',
    summary: 'Revoke a delegated signing key',
    tags: ['Embedded Wallet Auth'],
    permission: 'MANAGE',
    params: idParams,
    responses: { 204: { description: 'Delegated key revoked' }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, params }) => {
    await delegatedKeys.revoke(actor.platformId, params.id);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getDelegatedKey, revokeDelegatedKey);
