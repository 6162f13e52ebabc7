import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { accountLookupResponse, accountParams, lookupQuery } from '@/lib/payments/uma/schema';

// GET /receiver/external-account/{accountId} – what an external account accepts; returns a lookupId
const lookup = commandEndpoint(
  {
    method: 'GET',
    path: '/receiver/external-account/{accountId}',
    answer: ok,
    summary: 'Look up an external account for payment',
    tags: ['Cross-Currency Transfers'],
    params: accountParams,
    query: lookupQuery,
    responses: {
      200: { description: 'Successful lookup', schema: accountLookupResponse },
      ...errors(400, 401, 403, 404),
    },
  },
  payments.lookupReceiverAccount,
  ({ params, query }) => ({ ...query, accountId: params.accountId }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(lookup);
