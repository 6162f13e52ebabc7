import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as accounts from '@/lib/external-accounts/customer-commands';
import { errors } from '@/lib/http/docs';
import { beneficiaryTrustStart, externalAccountIdParams } from '@/lib/external-accounts/schema';

// POST /customers/external-accounts/{externalAccountId}/untrust – start untrusting a beneficiary: issues the SCA challenge
const startBeneficiaryUntrust = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/untrust',
    answer: ok,
    summary: 'Start untrusting a beneficiary',
    tags: ['Strong Customer Authentication'],
    params: externalAccountIdParams,
    responses: {
      200: {
        description: 'Beneficiary untrust started; the SCA challenge is returned.',
        schema: beneficiaryTrustStart,
      },
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  accounts.startTrust,
  ({ params }) => ({ externalAccountId: params.externalAccountId, action: 'UNTRUST' }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(startBeneficiaryUntrust);
