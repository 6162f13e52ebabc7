import { accepted, created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import {
  accountQuery,
  authMethod,
  authMethodList,
  credentialCreate,
  signedRetryHeaders,
} from '@/lib/wallet-auth/schema';
import * as credentials from '@/lib/wallet-auth/credentials';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// Permissions (reference: BasicAuth): adding, revoking and logging in with credentials change
// who can act for a wallet, so they need MANAGE; listing needs VIEW.

// POST /auth/credentials – add a credential; 202 challenge, then the signed retry creates it
const createCredential = endpoint(
  {
    method: 'POST',
    path: '/auth/credentials',
    summary: 'Create an authentication credential',
    tags: ['Embedded Wallet Auth'],
    permission: 'MANAGE',
    body: credentialCreate,
    headers: signedRetryHeaders,
    responses: {
      201: { description: 'Authentication credential created', schema: authMethod },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, body, signed }) => {
    const result = await credentials.add(actor.platformId, body, signed);
    return isChallenge(result) ? accepted(result) : created(result);
  },
);

// GET /auth/credentials – the active credentials of an embedded wallet (not paginated)
const listCredentials = endpoint(
  {
    method: 'GET',
    path: '/auth/credentials',
    summary: 'List authentication credentials',
    tags: ['Embedded Wallet Auth'],
    permission: 'VIEW',
    query: accountQuery,
    responses: {
      200: { description: 'Credentials of the internal account', schema: authMethodList },
      ...errors(400, 401, 403),
    },
  },
  async ({ actor, query }) => ok(await credentials.list(actor.platformId, query.accountId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createCredential, listCredentials);
