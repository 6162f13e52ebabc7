import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { apiToken, tokenCreate, tokenList, tokenListQuery } from '@/lib/tokens/schema';
import * as commands from '@/lib/tokens/commands';

// POST /tokens – issue an API token; its secret is in this response only
const createToken = commandEndpoint(
  {
    method: 'POST',
    path: '/tokens',
    summary: 'Create a new API token',
    tags: ['API Tokens'],
    body: tokenCreate,
    answer: created,
    responses: { 201: { description: 'Token created', schema: apiToken }, ...errors(400, 401, 403) },
  },
  commands.createToken,
  ({ raw }) => raw.body,
);

// GET /tokens – list tokens (secrets are never listed)
const listTokens = commandEndpoint(
  {
    method: 'GET',
    path: '/tokens',
    summary: 'List tokens',
    tags: ['API Tokens'],
    query: tokenListQuery,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: tokenList }, ...errors(400, 401, 403) },
  },
  commands.listTokens,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createToken, listTokens);
