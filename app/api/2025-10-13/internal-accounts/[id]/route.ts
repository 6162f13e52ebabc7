import { accepted, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import { internalAccount } from '@/lib/accounts/schema';
import { idParams, internalAccountUpdate, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import * as wallet from '@/lib/wallet-auth/wallet';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// PATCH /internal-accounts/{id} – embedded-wallet privacy, applied on the wallet-signed retry (MANAGE)
const updateInternalAccount = endpoint(
  {
    method: 'PATCH',
    path: '/internal-accounts/{id}',
    summary: 'Update internal account',
    tags: ['Internal Accounts'],
    permission: 'MANAGE',
    params: idParams,
    body: internalAccountUpdate,
    headers: signedRetryHeaders,
    responses: {
      200: { description: 'Internal account updated', schema: internalAccount },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body, signed }) => {
    const result = await wallet.updateWallet(actor.platformId, params.id, body, signed);
    return isChallenge(result) ? accepted(result) : ok(result);
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(updateInternalAccount);
