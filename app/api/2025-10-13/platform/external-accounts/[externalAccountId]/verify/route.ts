import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccount, externalAccountIdParams, ownershipVerifyRequest } from '@/lib/external-accounts/schema';
import * as commands from '@/lib/external-accounts/platform-commands';

// POST /platform/external-accounts/{externalAccountId}/verify – complete a WALLET_SIGNATURE challenge
const verifyPlatformExternalAccountOwnership = commandEndpoint(
  {
    method: 'POST',
    path: '/platform/external-accounts/{externalAccountId}/verify',
    summary: 'Verify ownership with a wallet signature',
    tags: ['External Accounts'],
    answer: ok,
    params: externalAccountIdParams,
    body: ownershipVerifyRequest,
    responses: {
      200: { description: 'Signature valid; the account is ACTIVE', schema: externalAccount },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  commands.verifyPlatformOwnership,
  ({ params, body }) => ({ externalAccountId: params.externalAccountId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(verifyPlatformExternalAccountOwnership);
