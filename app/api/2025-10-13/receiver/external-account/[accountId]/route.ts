import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { accountLookupResponse, accountParams, lookupQuery } from '@/lib/payments/uma/schema';
import { lookupExternalAccount } from '@/lib/payments/uma/lookups';

// GET /receiver/external-account/{accountId} – what an external account accepts; returns a lookupId
const lookup = endpoint(
  {
    method: 'GET',
    path: '/receiver/external-account/{accountId}',
    summary: 'Look up an external account for payment',
    tags: ['Cross-Currency Transfers'],
    permission: 'VIEW',
    params: accountParams,
    query: lookupQuery,
    responses: {
      200: { description: 'Successful lookup', schema: accountLookupResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, query }) => ok(await lookupExternalAccount(actor.platformId, params.accountId, query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(lookup);
