import { commandEndpoint, noContent, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { apiToken, tokenIdParams } from '@/lib/tokens/schema';
import * as commands from '@/lib/tokens/commands';

// GET /tokens/{tokenId} – one token
const getToken = commandEndpoint(
  {
    method: 'GET',
    path: '/tokens/{tokenId}',
    summary: 'Get API token by ID',
    tags: ['API Tokens'],
    params: tokenIdParams,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: apiToken }, ...errors(401, 403, 404) },
  },
  commands.getToken,
  ({ params }) => params,
);

// DELETE /tokens/{tokenId} – revoke a token at once
const deleteToken = commandEndpoint(
  {
    method: 'DELETE',
    path: '/tokens/{tokenId}',
    summary: 'Delete API token by ID',
    tags: ['API Tokens'],
    params: tokenIdParams,
    answer: noContent,
    responses: { 204: { description: 'Token deleted' }, ...errors(400, 401, 403, 404) },
  },
  commands.revokeToken,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getToken, deleteToken);
