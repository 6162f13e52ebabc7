import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import {
  beneficiaryTrustConfirm,
  beneficiaryTrustConfirmRequest,
  externalAccountIdParams,
} from '@/lib/external-accounts/schema';
import * as trust from '@/lib/external-accounts/trust';

// POST /customers/external-accounts/{externalAccountId}/untrust/confirm – finish untrusting a beneficiary with the SCA code
const confirmBeneficiaryUntrust = endpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/untrust/confirm',
    summary: 'Confirm untrusting a beneficiary',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    params: externalAccountIdParams,
    body: beneficiaryTrustConfirmRequest,
    responses: {
      200: { description: 'Beneficiary untrusted.', schema: beneficiaryTrustConfirm },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, params, body }) =>
    ok(await trust.confirm(actor.platformId, params.externalAccountId, 'UNTRUST', body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirmBeneficiaryUntrust);
