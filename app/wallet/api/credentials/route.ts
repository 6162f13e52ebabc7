import { isChallenge } from '@/lib/wallet-auth/presenter';
import { addPasskey, listCredentials } from '@/lib/wallet-web/credential-commands';
import { clearRegistrationChallenge } from '@/lib/wallet-web/service';
import {
  asHolder,
  body,
  json,
  refuseCrossSite,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../_server/http';

// GET /wallet/api/credentials – the wallet's credentials (how its holder can sign in).
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return signedOut();
  return json(200, await asHolder(s, listCredentials));
});

// POST /wallet/api/credentials – {nickname, attestation}: adds the passkey the browser just
// created over the registration challenge this browser was given. A signed retry: answered 202
// with the payload for the session key to stamp, then repeated with the stamp.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  const b = await body(req);
  const result = await asHolder(s, addPasskey, {
    nickname: b?.value.nickname,
    attestation: b?.value.attestation,
    challenge: s.registrationChallenge ?? '',
    signature: signatureOf(req),
  });
  if (isChallenge(result)) return json(202, result);
  await clearRegistrationChallenge(s);
  return json(201, result);
});
