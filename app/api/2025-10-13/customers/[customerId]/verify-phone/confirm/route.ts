import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customer, customerIdParams } from '@/lib/customers/schema';
import { confirmBody } from '@/lib/contact-verification/schema';
import * as contactVerification from '@/lib/contact-verification/service';

// POST /customers/{customerId}/verify-phone/confirm – check the code received by SMS; the phone becomes VERIFIED
const confirmPhoneVerification = endpoint(
  {
    method: 'POST',
    path: '/customers/{customerId}/verify-phone/confirm',
    summary: "Confirm a customer's phone verification code",
    tags: ['Contact Verification'],
    permission: 'MANAGE',
    params: customerIdParams,
    body: confirmBody,
    responses: { 200: { description: 'Phone verified.', schema: customer }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, body }) =>
    ok(await contactVerification.confirm(actor.platformId, params.customerId, 'PHONE', body.code)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirmPhoneVerification);
