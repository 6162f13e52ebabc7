import { accepted, commandEndpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import { idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';

// DELETE /auth/sessions/{id} – revoke a session (signed by any active session of the account, itself included)
const revokeSession = commandEndpoint(
  {
    method: 'DELETE',
    path: '/auth/sessions/{id}',
    summary: 'Revoke an authentication session',
    tags: ['Embedded Wallet Auth'],
    answer: (challenge) => (challenge ? accepted(challenge) : noContent()),
    params: idParams,
    headers: signedRetryHeaders,
    responses: {
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      204: { description: 'Session revoked' },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.revokeSession,
  ({ params, signed }) => ({ id: params.id, signed }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(revokeSession);
