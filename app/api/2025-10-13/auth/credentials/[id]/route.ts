import { accepted, endpoint, noContent, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import { idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import * as credentials from '@/lib/wallet-auth/credentials';

// DELETE /auth/credentials/{id} – revoke a credential (signed by another credential's session); ends its sessions
const revokeCredential = endpoint(
  {
    method: 'DELETE',
    path: '/auth/credentials/{id}',
    summary: 'Revoke an authentication credential',
    tags: ['Embedded Wallet Auth'],
    permission: 'MANAGE',
    params: idParams,
    headers: signedRetryHeaders,
    responses: {
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      204: { description: 'Credential revoked' },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, signed }) => {
    const challenge = await credentials.revoke(actor.platformId, params.id, signed);
    return challenge ? accepted(challenge) : noContent();
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(revokeCredential);
