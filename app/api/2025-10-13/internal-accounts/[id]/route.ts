import { accepted, commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as wallet from '@/lib/wallet-auth/commands';
import { errors, signedChallenge } from '@/lib/http/docs';
import { internalAccount } from '@/lib/accounts/schema';
import { idParams, internalAccountUpdate, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// PATCH /internal-accounts/{id} – embedded-wallet privacy, applied on the wallet-signed retry (MANAGE)
const updateInternalAccount = commandEndpoint(
  {
    method: 'PATCH',
    path: '/internal-accounts/{id}',
    answer: (result) => (isChallenge(result) ? accepted(result) : ok(result)),
    summary: 'Update internal account',
    tags: ['Internal Accounts'],
    params: idParams,
    body: internalAccountUpdate,
    headers: signedRetryHeaders,
    responses: {
      200: { description: 'Internal account updated', schema: internalAccount },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  wallet.updateWallet,
  ({ params, body, signed }) => ({ id: params.id, body, signed }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(updateInternalAccount);
