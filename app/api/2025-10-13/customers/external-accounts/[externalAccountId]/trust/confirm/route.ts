import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as accounts from '@/lib/external-accounts/customer-commands';
import { errors } from '@/lib/http/docs';
import {
  beneficiaryTrustConfirm,
  beneficiaryTrustConfirmRequest,
  externalAccountIdParams,
} from '@/lib/external-accounts/schema';

// POST /customers/external-accounts/{externalAccountId}/trust/confirm – finish trusting a beneficiary with the SCA code
const confirmBeneficiaryTrust = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/trust/confirm',
    answer: ok,
    summary: 'Confirm trusting a beneficiary',
    tags: ['Strong Customer Authentication'],
    params: externalAccountIdParams,
    body: beneficiaryTrustConfirmRequest,
    responses: {
      200: { description: 'Beneficiary trusted.', schema: beneficiaryTrustConfirm },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  accounts.confirmTrust,
  ({ params, body }) => ({ externalAccountId: params.externalAccountId, action: 'TRUST', body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirmBeneficiaryTrust);
