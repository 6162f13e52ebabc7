import { commandEndpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import { delegatedKey, idParams } from '@/lib/wallet-auth/schema';

// GET /auth/delegated-keys/{id} – one delegated key (VIEW)
const getDelegatedKey = commandEndpoint(
  {
    method: 'GET',
    path: '/auth/delegated-keys/{id}',
    summary: 'Get a delegated signing key',
    tags: ['Embedded Wallet Auth'],
    answer: ok,
    params: idParams,
    responses: { 200: { description: 'Successful operation', schema: delegatedKey }, ...errors(401, 403, 404) },
  },
  commands.getDelegatedKey,
  ({ params }) => params,
);

// DELETE /auth/delegated-keys/{id} – revoke an ACTIVE key; its custodied private key is erased (MANAGE)
const revokeDelegatedKey = commandEndpoint(
  {
    method: 'DELETE',
    path: '/auth/delegated-keys/{id}',
    summary: 'Revoke a delegated signing key',
    tags: ['Embedded Wallet Auth'],
    answer: noContent,
    params: idParams,
    responses: { 204: { description: 'Delegated key revoked' }, ...errors(400, 401, 403, 404) },
  },
  commands.revokeDelegatedKey,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getDelegatedKey, revokeDelegatedKey);
