import { accepted, created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import {
  delegatedKey,
  delegatedKeyCreate,
  delegatedKeyList,
  delegatedKeyQuery,
  signedRetryHeaders,
} from '@/lib/wallet-auth/schema';
import * as delegatedKeys from '@/lib/wallet-auth/delegated-keys';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /auth/delegated-keys – three-leg signed retry: 202, 202, then 201 with the ACTIVE key (MANAGE)
const createDelegatedKey = endpoint(
  {
    method: 'POST',
    path: '/auth/delegated-keys',
    summary: 'Create a delegated signing key',
    tags: ['Embedded Wallet Auth'],
    permission: 'MANAGE',
    body: delegatedKeyCreate,
    headers: signedRetryHeaders,
    responses: {
      201: { description: 'Delegated key active', schema: delegatedKey },
      202: { description: 'Signed-retry challenge for the next leg', schema: signedChallenge },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, body, signed }) => {
    const result = await delegatedKeys.create(actor.platformId, body, signed);
    return isChallenge(result) ? accepted(result) : created(result);
  },
);

// GET /auth/delegated-keys – keys of a wallet and/or a card funding source, all statuses (VIEW)
const listDelegatedKeys = endpoint(
  {
    method: 'GET',
    path: '/auth/delegated-keys',
    summary: 'List delegated signing keys',
    tags: ['Embedded Wallet Auth'],
    permission: 'VIEW',
    query: delegatedKeyQuery,
    responses: { 200: { description: 'Delegated keys', schema: delegatedKeyList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => ok(await delegatedKeys.list(actor.platformId, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createDelegatedKey, listDelegatedKeys);
