import { accepted, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import { authSession, credentialVerify, idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import * as login from '@/lib/wallet-auth/login';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /auth/credentials/{id}/verify – prove the credential and get a session (OTP: 202, then the TEK-signed retry)
const verifyCredential = endpoint(
  {
    method: 'POST',
    path: '/auth/credentials/{id}/verify',
    summary: 'Verify an authentication credential',
    tags: ['Embedded Wallet Auth'],
    permission: 'MANAGE',
    params: idParams,
    body: credentialVerify,
    headers: signedRetryHeaders,
    responses: {
      200: { description: 'Session issued', schema: authSession },
      202: { description: 'OTP accepted: sign the verification token with the TEK and retry', schema: signedChallenge },
      ...errors(400, 401, 403, 404, 429),
    },
  },
  async ({ actor, params, body, signed }) => {
    const result = await login.verify(actor.platformId, params.id, body, signed);
    return isChallenge(result) ? accepted(result) : ok(result);
  },
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(verifyCredential);
