import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as contact from '@/lib/contact-verification/commands';
import { errors } from '@/lib/http/docs';
import { customer, customerIdParams } from '@/lib/customers/schema';
import { confirmBody } from '@/lib/contact-verification/schema';

// POST /customers/{customerId}/verify-email/confirm – check the code received by email; the email becomes VERIFIED
const confirmEmailVerification = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/{customerId}/verify-email/confirm',
    answer: ok,
    summary: "Confirm a customer's email verification code",
    tags: ['Contact Verification'],
    params: customerIdParams,
    body: confirmBody,
    responses: { 200: { description: 'Email verified.', schema: customer }, ...errors(400, 401, 403, 404, 409) },
  },
  contact.confirmCode,
  ({ params, body }) => ({ customerId: params.customerId, channel: 'EMAIL', code: body.code }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirmEmailVerification);
