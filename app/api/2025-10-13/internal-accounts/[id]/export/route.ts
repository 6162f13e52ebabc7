import { accepted, commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as wallet from '@/lib/wallet-auth/commands';
import { errors, signedChallenge } from '@/lib/http/docs';
import { exportRequest, exportResponse, idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /internal-accounts/{id}/export – the wallet secret HPKE-sealed to clientPublicKey, on the wallet-signed retry (MANAGE)
const exportInternalAccount = commandEndpoint(
  {
    method: 'POST',
    path: '/internal-accounts/{id}/export',
    answer: (result) => (isChallenge(result) ? accepted(result) : ok(result)),
    summary: 'Export internal account wallet credentials',
    tags: ['Internal Accounts'],
    params: idParams,
    body: exportRequest,
    headers: signedRetryHeaders,
    responses: {
      200: { description: 'Encrypted wallet credentials', schema: exportResponse },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  wallet.exportWallet,
  ({ params, body, signed }) => ({ id: params.id, body, signed }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(exportInternalAccount);
