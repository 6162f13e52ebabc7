import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import {
  providerAccount,
  providerAccountLink,
  providerAccountList,
  providerAccountsQuery,
} from '@/lib/stablecoins/schema';
import * as links from '@/lib/stablecoins/links';

// POST /stablecoin-provider-accounts – link provider API credentials (verified, stored sealed, never returned)
const link = endpoint(
  {
    method: 'POST',
    path: '/stablecoin-provider-accounts',
    summary: 'Link a stablecoin provider account',
    tags: ['Stablecoins'],
    permission: 'MANAGE',
    body: providerAccountLink,
    idempotent: true,
    keyRequired: true,
    answer: created,
    responses: {
      201: { description: 'Stablecoin provider account linked', schema: providerAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  async ({ actor, body }) => links.link(actor.platformId, body),
);

// GET /stablecoin-provider-accounts – the platform's provider account links, newest first
const list = endpoint(
  {
    method: 'GET',
    path: '/stablecoin-provider-accounts',
    summary: 'List stablecoin provider account links',
    tags: ['Stablecoins'],
    permission: 'VIEW',
    query: providerAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: providerAccountList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { provider, status, limit, cursor } }) =>
    ok(await links.list(actor.platformId, { provider, status }, limit, cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(link, list);
