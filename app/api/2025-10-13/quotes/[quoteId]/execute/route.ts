import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as payments from '@/lib/payments/commands';
import { executeQuoteBody, quote, quoteIdParams } from '@/lib/payments/quotes/schema';

// POST /quotes/{quoteId}/execute – start the transfer (Embedded Wallet sources: signed by the holder)
const execute = commandEndpoint(
  {
    method: 'POST',
    path: '/quotes/{quoteId}/execute',
    summary: 'Execute a quote',
    tags: ['Cross-Currency Transfers'],
    params: quoteIdParams,
    body: executeQuoteBody,
    answer: ok,
    headers: {
      'Service-Wallet-Signature':
        'Stamp over the quote payloadToSign (Embedded Wallet sources); Grid-Wallet-Signature is accepted too',
    },
    responses: { 200: { description: 'Quote executed', schema: quote }, ...errors(400, 401, 403, 404, 409) },
  },
  payments.executeQuote,
  ({ params, signed }) => ({ quoteId: params.quoteId, stamp: signed.stamp }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(execute);
