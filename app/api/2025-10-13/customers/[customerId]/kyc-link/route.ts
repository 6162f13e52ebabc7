import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import * as verifications from '@/lib/verifications/commands';
import { errors } from '@/lib/http/docs';
import { customerIdParams } from '@/lib/customers/schema';
import { kycLink, kycLinkCreate } from '@/lib/verifications/schema';

// POST /customers/{customerId}/kyc-link – a hosted, single-use KYC/KYB link for the customer
const createLink = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/{customerId}/kyc-link',
    answer: created,
    summary: 'Generate a hosted KYC/KYB link for an existing customer',
    tags: ['KYC/KYB Verifications'],
    params: customerIdParams,
    body: kycLinkCreate,
    responses: { 201: { description: 'KYC link generated', schema: kycLink }, ...errors(400, 401, 403, 404, 409) },
  },
  verifications.createLink,
  ({ params, body }) => ({ customerId: params.customerId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createLink);
