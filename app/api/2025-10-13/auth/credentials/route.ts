import { accepted, commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import {
  accountQuery,
  authMethod,
  authMethodList,
  credentialCreate,
  signedRetryHeaders,
} from '@/lib/wallet-auth/schema';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// Permissions (reference: BasicAuth): adding, revoking and logging in with credentials change
// who can act for a wallet, so they need MANAGE; listing needs VIEW.

// POST /auth/credentials – add a credential; 202 challenge, then the signed retry creates it
const createCredential = commandEndpoint(
  {
    method: 'POST',
    path: '/auth/credentials',
    summary: 'Create an authentication credential',
    tags: ['Embedded Wallet Auth'],
    answer: (r) => (isChallenge(r) ? accepted(r) : created(r)),
    body: credentialCreate,
    headers: signedRetryHeaders,
    responses: {
      201: { description: 'Authentication credential created', schema: authMethod },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.addCredential,
  ({ raw, signed }) => ({ body: raw.body, signed }),
);

// GET /auth/credentials – the active credentials of an embedded wallet (not paginated)
const listCredentials = commandEndpoint(
  {
    method: 'GET',
    path: '/auth/credentials',
    summary: 'List authentication credentials',
    tags: ['Embedded Wallet Auth'],
    answer: ok,
    query: accountQuery,
    responses: {
      200: { description: 'Credentials of the internal account', schema: authMethodList },
      ...errors(400, 401, 403),
    },
  },
  commands.listCredentials,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createCredential, listCredentials);
