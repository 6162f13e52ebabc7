import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { beneficiaryTrustStart, externalAccountIdParams } from '@/lib/external-accounts/schema';
import * as trust from '@/lib/external-accounts/trust';

// POST /customers/external-accounts/{externalAccountId}/trust – start trusting a beneficiary: issues the SCA challenge
const startBeneficiaryTrust = endpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/trust',
    summary: 'Start trusting a beneficiary',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    params: externalAccountIdParams,
    responses: {
      200: { description: 'Beneficiary trust started; the SCA challenge is returned.', schema: beneficiaryTrustStart },
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  async ({ actor, params }) => ok(await trust.start(actor.platformId, params.externalAccountId, 'TRUST')),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(startBeneficiaryTrust);
