import { accepted, commandEndpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import { idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';

// DELETE /auth/credentials/{id} – revoke a credential (signed by another credential's session); ends its sessions
const revokeCredential = commandEndpoint(
  {
    method: 'DELETE',
    path: '/auth/credentials/{id}',
    summary: 'Revoke an authentication credential',
    tags: ['Embedded Wallet Auth'],
    answer: (challenge) => (challenge ? accepted(challenge) : noContent()),
    params: idParams,
    headers: signedRetryHeaders,
    responses: {
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      204: { description: 'Credential revoked' },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.revokeCredential,
  ({ params, signed }) => ({ id: params.id, signed }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(revokeCredential);
