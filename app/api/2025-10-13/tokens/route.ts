import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { apiToken, tokenCreate, tokenList, tokenListQuery } from '@/lib/tokens/schema';
import * as tokens from '@/lib/tokens/service';

// POST /tokens – issue an API token; its secret is in this response only
const createToken = endpoint(
  {
    method: 'POST',
    path: '/tokens',
    summary: 'Create a new API token',
    tags: ['API Tokens'],
    permission: 'MANAGE',
    body: tokenCreate,
    idempotent: true,
    answer: created,
    responses: { 201: { description: 'Token created', schema: apiToken }, ...errors(400, 401, 403) },
  },
  async ({ actor, body }) => tokens.create(actor.platformId, body.name, body.permissions),
);

// GET /tokens – list tokens (secrets are never listed)
const listTokens = endpoint(
  {
    method: 'GET',
    path: '/tokens',
    summary: 'List tokens',
    tags: ['API Tokens'],
    permission: 'VIEW',
    query: tokenListQuery,
    responses: { 200: { description: 'Successful operation', schema: tokenList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => {
    const { limit, cursor, ...filter } = query;
    return ok(
      await tokens.list(
        actor.platformId,
        {
          name: filter.name,
          createdAfter: filter.createdAfter ? new Date(filter.createdAfter) : undefined,
          createdBefore: filter.createdBefore ? new Date(filter.createdBefore) : undefined,
          updatedAfter: filter.updatedAfter ? new Date(filter.updatedAfter) : undefined,
          updatedBefore: filter.updatedBefore ? new Date(filter.updatedBefore) : undefined,
        },
        limit,
        cursor,
      ),
    );
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createToken, listTokens);
