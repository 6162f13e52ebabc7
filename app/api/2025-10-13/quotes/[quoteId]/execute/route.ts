import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { executeQuoteBody, quote, quoteIdParams } from '@/lib/payments/quotes/schema';
import { executeQuote } from '@/lib/payments/quotes/execute';
import { walletSignatureForQuote } from '@/lib/payments/quotes/wallet';

// POST /quotes/{quoteId}/execute – start the transfer (Embedded Wallet sources: signed by the holder)
const execute = endpoint(
  {
    method: 'POST',
    path: '/quotes/{quoteId}/execute',
    summary: 'Execute a quote',
    tags: ['Cross-Currency Transfers'],
    permission: 'TRANSACT',
    params: quoteIdParams,
    body: executeQuoteBody,
    idempotent: true,
    answer: ok,
    headers: {
      'Service-Wallet-Signature':
        'Stamp over the quote payloadToSign (Embedded Wallet sources); Grid-Wallet-Signature is accepted too',
    },
    responses: { 200: { description: 'Quote executed', schema: quote }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, signed }) =>
    executeQuote(actor.platformId, params.quoteId, walletSignatureForQuote(signed.stamp)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(execute);
