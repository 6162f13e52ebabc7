import { clearRegistrationChallenge } from '@/lib/wallet-web/service';
import { forward } from '../../_server/forward';
import {
  body,
  problem,
  refuseCrossSite,
  relay,
  signatureOf,
  signedOut,
  walletRoute,
  webSession,
} from '../../_server/http';
import { credentials } from '../../_server/routes';

// GET /wallet/api/credentials – the wallet's credentials (how its holder can sign in).
export const GET = walletRoute(async () => {
  const s = await webSession();
  if (!s) return signedOut();
  return relay(
    await forward(s.platformId, credentials, 'GET', '/auth/credentials', { query: { accountId: s.accountId } }),
  );
});

// POST /wallet/api/credentials – {nickname, attestation}: adds the passkey the browser just
// created over the registration challenge this browser was given. A signed retry: answered 202
// with the payload for the session key to stamp, then repeated with the stamp.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const s = await webSession();
  if (!s) return signedOut();
  if (!s.registrationChallenge) return problem(400, 'INVALID_INPUT', 'Ask for passkey options first');
  const b = await body(req);
  if (!b || typeof b.value.nickname !== 'string' || typeof b.value.attestation !== 'object')
    return problem(400, 'INVALID_INPUT', 'Give a nickname and the attestation of the new passkey');
  // The same request both times (the signature binds its body): built from what the browser sent
  // and this browser's registration challenge.
  const request = JSON.stringify({
    type: 'PASSKEY',
    accountId: s.accountId,
    nickname: b.value.nickname,
    challenge: s.registrationChallenge,
    attestation: b.value.attestation,
  });
  const r = await forward(s.platformId, credentials, 'POST', '/auth/credentials', {
    body: request,
    signature: signatureOf(req),
  });
  if (r.status === 201) await clearRegistrationChallenge(s);
  return relay(r);
});
