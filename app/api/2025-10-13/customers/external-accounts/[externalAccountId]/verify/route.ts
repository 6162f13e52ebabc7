import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams, ownershipVerifyRequest } from '@/lib/external-accounts/schema';
import * as ownership from '@/lib/external-accounts/ownership';

// POST /customers/external-accounts/{externalAccountId}/verify – complete a WALLET_SIGNATURE challenge
const verifyExternalAccountOwnership = endpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/verify',
    summary: 'Verify ownership with a wallet signature',
    tags: ['External Accounts'],
    permission: 'MANAGE',
    params: externalAccountIdParams,
    body: ownershipVerifyRequest,
    responses: {
      200: { description: 'Signature valid; the account is ACTIVE', schema: externalAccount },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, params, body }) =>
    ok(await ownership.verifySignature(actor.platformId, params.externalAccountId, { kind: 'customers' }, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(verifyExternalAccountOwnership);
