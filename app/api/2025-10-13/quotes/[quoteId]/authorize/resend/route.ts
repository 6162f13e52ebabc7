import { commandEndpoint, noContent, routes } from '@/lib/http/endpoint';
import * as payments from '@/lib/payments/commands';
import { errors } from '@/lib/http/docs';
import { quoteIdParams } from '@/lib/payments/quotes/schema';

// POST /quotes/{quoteId}/authorize/resend – send the SMS code of a quote's challenge again
const resendCode = commandEndpoint(
  {
    method: 'POST',
    path: '/quotes/{quoteId}/authorize/resend',
    answer: noContent,
    summary: "Resend a quote's SCA code",
    tags: ['Strong Customer Authentication'],
    params: quoteIdParams,
    responses: { 204: { description: 'Code sent' }, ...errors(401, 403, 404, 409, 429) },
  },
  payments.resendQuoteCode,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(resendCode);
