import { accepted, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import { exportRequest, exportResponse, idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import * as wallet from '@/lib/wallet-auth/wallet';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /internal-accounts/{id}/export – the wallet secret HPKE-sealed to clientPublicKey, on the wallet-signed retry (MANAGE)
const exportInternalAccount = endpoint(
  {
    method: 'POST',
    path: '/internal-accounts/{id}/export',
    summary: 'Export internal account wallet credentials',
    tags: ['Internal Accounts'],
    permission: 'MANAGE',
    params: idParams,
    body: exportRequest,
    headers: signedRetryHeaders,
    responses: {
      200: { description: 'Encrypted wallet credentials', schema: exportResponse },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body, signed }) => {
    const result = await wallet.exportWallet(actor.platformId, params.id, body.clientPublicKey, signed);
    return isChallenge(result) ? accepted(result) : ok(result);
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(exportInternalAccount);
