import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { lookupQuery, umaLookupResponse, umaParams } from '@/lib/payments/uma/schema';

// GET /receiver/uma/{receiverUmaAddress} – what a UMA receiver accepts; returns a lookupId for quotes
const lookup = commandEndpoint(
  {
    method: 'GET',
    path: '/receiver/uma/{receiverUmaAddress}',
    answer: ok,
    summary: 'Look up an UMA address for payment',
    tags: ['Cross-Currency Transfers'],
    params: umaParams,
    query: lookupQuery,
    responses: {
      200: { description: 'Successful lookup', schema: umaLookupResponse },
      ...errors(400, 401, 403, 404, 424),
    },
  },
  payments.lookupReceiverUma,
  ({ params, query }) => ({ ...query, receiverUmaAddress: params.receiverUmaAddress }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(lookup);
