import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerIdParams } from '@/lib/customers/schema';
import { kycLink, kycLinkCreate } from '@/lib/verifications/schema';
import { createKycLink } from '@/lib/verifications/kyc-link';

// POST /customers/{customerId}/kyc-link – a hosted, single-use KYC/KYB link for the customer
const createLink = endpoint(
  {
    method: 'POST',
    path: '/customers/{customerId}/kyc-link',
    summary: 'Generate a hosted KYC/KYB link for an existing customer',
    tags: ['KYC/KYB Verifications'],
    permission: 'MANAGE',
    params: customerIdParams,
    body: kycLinkCreate,
    idempotent: true,
    answer: created,
    responses: { 201: { description: 'KYC link generated', schema: kycLink }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, params, body }) => createKycLink(actor.platformId, params.customerId, body.redirectUri),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createLink);
