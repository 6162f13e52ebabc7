import { endpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { quoteIdParams } from '@/lib/payments/quotes/schema';
import { resend } from '@/lib/payments/quotes/sca';

// POST /quotes/{quoteId}/authorize/resend – send the SMS code of a quote's challenge again
const resendCode = endpoint(
  {
    method: 'POST',
    path: '/quotes/{quoteId}/authorize/resend',
    summary: "Resend a quote's SCA code",
    tags: ['Strong Customer Authentication'],
    permission: 'TRANSACT',
    params: quoteIdParams,
    responses: { 204: { description: 'Code sent' }, ...errors(401, 403, 404, 409, 429) },
  },
  async ({ actor, params }) => {
    await resend(actor.platformId, params.quoteId);
    return noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(resendCode);
