import { commandEndpoint, noContent, routes } from '@/lib/http/endpoint';
import * as contact from '@/lib/contact-verification/commands';
import { errors } from '@/lib/http/docs';
import { customerIdParams } from '@/lib/customers/schema';

// POST /customers/{customerId}/verify-phone – send (or resend) a one-time code to the customer's phone number
const sendPhoneVerification = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/{customerId}/verify-phone',
    answer: noContent,
    summary: 'Send a phone verification code to a customer',
    description:
      'Only for customers whose region requires contact verification; 409 otherwise, when the phone is already verified, or when a code was sent less than a minute ago (Retry-After). The code expires after 10 minutes. In sandbox the code is always 123456.',
    tags: ['Contact Verification'],
    params: customerIdParams,
    responses: { 204: { description: 'Verification code sent.' }, ...errors(401, 403, 404, 409) },
  },
  contact.sendCode,
  ({ params }) => ({ customerId: params.customerId, channel: 'PHONE' }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(sendPhoneVerification);
