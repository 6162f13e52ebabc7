import { accepted, created, endpoint, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import { authSession, idParams, refreshRequest, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import * as sessions from '@/lib/wallet-auth/sessions';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /auth/sessions/{id}/refresh – a new session for a new key, signed by the session being refreshed
const refreshSession = endpoint(
  {
    method: 'POST',
    path: '/auth/sessions/{id}/refresh',
    summary: 'Refresh an authentication session',
    tags: ['Embedded Wallet Auth'],
    permission: 'MANAGE',
    params: idParams,
    body: refreshRequest,
    headers: signedRetryHeaders,
    responses: {
      201: { description: 'New session', schema: authSession },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body, signed }) => {
    const result = await sessions.refresh(actor.platformId, params.id, body.clientPublicKey, signed);
    return isChallenge(result) ? accepted(result) : created(result);
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(refreshSession);
