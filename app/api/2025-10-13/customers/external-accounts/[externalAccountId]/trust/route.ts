import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as accounts from '@/lib/external-accounts/customer-commands';
import { errors } from '@/lib/http/docs';
import { beneficiaryTrustStart, externalAccountIdParams } from '@/lib/external-accounts/schema';

// POST /customers/external-accounts/{externalAccountId}/trust – start trusting a beneficiary: issues the SCA challenge
const startBeneficiaryTrust = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/trust',
    answer: ok,
    summary: 'Start trusting a beneficiary',
    tags: ['Strong Customer Authentication'],
    params: externalAccountIdParams,
    responses: {
      200: { description: 'Beneficiary trust started; the SCA challenge is returned.', schema: beneficiaryTrustStart },
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  accounts.startTrust,
  ({ params }) => ({ externalAccountId: params.externalAccountId, action: 'TRUST' }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(startBeneficiaryTrust);
