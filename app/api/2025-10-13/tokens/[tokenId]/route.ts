import { endpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { apiToken, tokenIdParams } from '@/lib/tokens/schema';
import * as tokens from '@/lib/tokens/service';

// GET /tokens/{tokenId} – one token
const getToken = endpoint(
  {
    method: 'GET',
    path: '/tokens/{tokenId}',
    summary: 'Get API token by ID',
    tags: ['API Tokens'],
    permission: 'VIEW',
    params: tokenIdParams,
    responses: { 200: { description: 'Successful operation', schema: apiToken }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await tokens.get(actor.platformId, params.tokenId)),
);

// DELETE /tokens/{tokenId} – revoke a token at once
const deleteToken = endpoint(
  {
    method: 'DELETE',
    path: '/tokens/{tokenId}',
    summary: 'Delete API token by ID',
    tags: ['API Tokens'],
    permission: 'MANAGE',
    params: tokenIdParams,
    responses: { 204: { description: 'Token deleted' }, ...errors(400, 401, 403, 404) },
  },
  async ({ actor, params }) => {
    await tokens.revoke(actor.platformId, params.tokenId, actor.kind === 'platform' ? actor.tokenId : undefined);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getToken, deleteToken);
