import { accepted, commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import { authSession, idParams, refreshRequest, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /auth/sessions/{id}/refresh – a new session for a new key, signed by the session being refreshed
const refreshSession = commandEndpoint(
  {
    method: 'POST',
    path: '/auth/sessions/{id}/refresh',
    summary: 'Refresh an authentication session',
    tags: ['Embedded Wallet Auth'],
    answer: (r) => (isChallenge(r) ? accepted(r) : created(r)),
    params: idParams,
    body: refreshRequest,
    headers: signedRetryHeaders,
    responses: {
      201: { description: 'New session', schema: authSession },
      202: { description: 'Signed-retry challenge', schema: signedChallenge },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.refreshSession,
  ({ params, raw, signed }) => ({ id: params.id, body: raw.body, signed }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(refreshSession);
