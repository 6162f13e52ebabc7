import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import * as stablecoins from '@/lib/stablecoins/commands';
import { errors } from '@/lib/http/docs';
import {
  providerAccount,
  providerAccountLink,
  providerAccountList,
  providerAccountsQuery,
} from '@/lib/stablecoins/schema';

// POST /stablecoin-provider-accounts – link provider API credentials (verified, stored sealed, never returned)
const link = commandEndpoint(
  {
    method: 'POST',
    path: '/stablecoin-provider-accounts',
    answer: created,
    summary: 'Link a stablecoin provider account',
    tags: ['Stablecoins'],
    body: providerAccountLink,
    responses: {
      201: { description: 'Stablecoin provider account linked', schema: providerAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  stablecoins.linkProviderAccount,
  ({ body }) => body,
);

// GET /stablecoin-provider-accounts – the platform's provider account links, newest first
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/stablecoin-provider-accounts',
    answer: ok,
    summary: 'List stablecoin provider account links',
    tags: ['Stablecoins'],
    query: providerAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: providerAccountList }, ...errors(400, 401, 403) },
  },
  stablecoins.listProviderAccounts,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(link, list);
