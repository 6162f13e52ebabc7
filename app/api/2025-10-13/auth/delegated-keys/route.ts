import { accepted, commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import {
  delegatedKey,
  delegatedKeyCreate,
  delegatedKeyList,
  delegatedKeyQuery,
  signedRetryHeaders,
} from '@/lib/wallet-auth/schema';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /auth/delegated-keys – three-leg signed retry: 202, 202, then 201 with the ACTIVE key (MANAGE)
const createDelegatedKey = commandEndpoint(
  {
    method: 'POST',
    path: '/auth/delegated-keys',
    summary: 'Create a delegated signing key',
    tags: ['Embedded Wallet Auth'],
    answer: (r) => (isChallenge(r) ? accepted(r) : created(r)),
    body: delegatedKeyCreate,
    headers: signedRetryHeaders,
    responses: {
      201: { description: 'Delegated key active', schema: delegatedKey },
      202: { description: 'Signed-retry challenge for the next leg', schema: signedChallenge },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  commands.createDelegatedKey,
  ({ raw, signed }) => ({ body: raw.body, signed }),
);

// GET /auth/delegated-keys – keys of a wallet and/or a card funding source, all statuses (VIEW)
const listDelegatedKeys = commandEndpoint(
  {
    method: 'GET',
    path: '/auth/delegated-keys',
    summary: 'List delegated signing keys',
    tags: ['Embedded Wallet Auth'],
    answer: ok,
    query: delegatedKeyQuery,
    responses: { 200: { description: 'Delegated keys', schema: delegatedKeyList }, ...errors(400, 401, 403) },
  },
  commands.listDelegatedKeys,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createDelegatedKey, listDelegatedKeys);
