import { accepted, commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors, signedChallenge } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import { authSession, credentialVerify, idParams, signedRetryHeaders } from '@/lib/wallet-auth/schema';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// POST /auth/credentials/{id}/verify – prove the credential and get a session (OTP: 202, then the TEK-signed retry)
const verifyCredential = commandEndpoint(
  {
    method: 'POST',
    path: '/auth/credentials/{id}/verify',
    summary: 'Verify an authentication credential',
    tags: ['Embedded Wallet Auth'],
    answer: (r) => (isChallenge(r) ? accepted(r) : ok(r)),
    params: idParams,
    body: credentialVerify,
    headers: signedRetryHeaders,
    responses: {
      200: { description: 'Session issued', schema: authSession },
      202: { description: 'OTP accepted: sign the verification token with the TEK and retry', schema: signedChallenge },
      ...errors(400, 401, 403, 404, 429),
    },
  },
  commands.verifyCredential,
  ({ params, raw, signed }) => ({ id: params.id, body: raw.body, signed }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(verifyCredential);
