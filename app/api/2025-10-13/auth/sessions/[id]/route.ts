import { accepted, endpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import { idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import * as sessions from '@/lib/wallet-auth/sessions';

// DELETE /auth/sessions/{id} – revoke a session (signed by any active session of the account, itself included)
const revokeSession = endpoint(
  {
    method: 'DELETE',
    path: '/auth/sessions/{id}',
    summary: 'Revoke an authentication session',
    tags: ['Embedded Wallet Auth'],
    permission: 'MANAGE',
    params: idParams,
    headers: signedRetryHeaders,
    responses: {
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      204: { description: 'Session revoked' },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, signed }) => {
    const challenge = await sessions.revoke(actor.platformId, params.id, signed);
    return challenge ? accepted(challenge) : noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(revokeSession);
