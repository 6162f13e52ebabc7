import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as accounts from '@/lib/external-accounts/customer-commands';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams, ownershipVerifyRequest } from '@/lib/external-accounts/schema';

// POST /customers/external-accounts/{externalAccountId}/verify – complete a WALLET_SIGNATURE challenge
const verifyExternalAccountOwnership = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/verify',
    answer: ok,
    summary: 'Verify ownership with a wallet signature',
    tags: ['External Accounts'],
    params: externalAccountIdParams,
    body: ownershipVerifyRequest,
    responses: {
      200: { description: 'Signature valid; the account is ACTIVE', schema: externalAccount },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  accounts.verifyOwnership,
  ({ params, body }) => ({ externalAccountId: params.externalAccountId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(verifyExternalAccountOwnership);
