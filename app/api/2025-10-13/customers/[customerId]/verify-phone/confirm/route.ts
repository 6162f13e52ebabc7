import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as contact from '@/lib/contact-verification/commands';
import { errors } from '@/lib/http/docs';
import { customer, customerIdParams } from '@/lib/customers/schema';
import { confirmBody } from '@/lib/contact-verification/schema';

// POST /customers/{customerId}/verify-phone/confirm – check the code received by SMS; the phone becomes VERIFIED
const confirmPhoneVerification = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/{customerId}/verify-phone/confirm',
    answer: ok,
    summary: "Confirm a customer's phone verification code",
    tags: ['Contact Verification'],
    params: customerIdParams,
    body: confirmBody,
    responses: { 200: { description: 'Phone verified.', schema: customer }, ...errors(400, 401, 403, 404, 409) },
  },
  contact.confirmCode,
  ({ params, body }) => ({ customerId: params.customerId, channel: 'PHONE', code: body.code }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirmPhoneVerification);
