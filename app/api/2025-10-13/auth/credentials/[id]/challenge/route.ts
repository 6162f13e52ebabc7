import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errorBody, errors } from '@/lib/http/docs';
import * as commands from '@/lib/wallet-auth/auth-commands';
import { authMethod, challengeRequest, idParams, passkeyAuthChallenge } from '@/lib/wallet-auth/schema';

// POST /auth/credentials/{id}/challenge – send a fresh OTP (with its HPKE target bundle) or issue a passkey challenge
const challengeCredential = commandEndpoint(
  {
    method: 'POST',
    path: '/auth/credentials/{id}/challenge',
    summary: 'Re-issue an authentication credential challenge',
    tags: ['Embedded Wallet Auth'],
    answer: ok,
    params: idParams,
    body: challengeRequest,
    responses: {
      200: {
        description: 'OTP sent (AuthMethod with otpEncryptionTargetBundle) or passkey challenge',
        schema: authMethod.or(passkeyAuthChallenge),
      },
      ...errors(400, 401, 403, 404),
      429: {
        description: 'Re-issued too soon; Retry-After gives the seconds to wait',
        schema: errorBody,
        headers: { 'Retry-After': 'seconds to wait' },
      },
    },
  },
  commands.challengeCredential,
  ({ params, raw, signed }) => ({ id: params.id, body: raw.body, signed }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(challengeCredential);
