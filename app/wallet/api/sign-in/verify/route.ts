import { cookies } from 'next/headers';
import { COOKIE, LOGIN_COOKIE, open } from '@/lib/wallet-web/service';
import { verifyDecoy } from '@/lib/wallet-web/sign-in';
import { forward } from '../../../_server/forward';
import {
  body,
  cookieOptions,
  json,
  parsed,
  problem,
  refuseCrossSite,
  relay,
  signatureOf,
  walletRoute,
} from '../../../_server/http';
import { openLogin } from '../../../_server/login';
import { credentialVerify } from '../../../_server/routes';

// POST /wallet/api/sign-in/verify – the proof for the credential of the sign-in in progress: an
// HPKE-sealed OTP (answered 202 with a payload for the browser's key to stamp, then repeated with
// the stamp) or a passkey assertion (with the challenge's Request-Id). When the API opens the
// wallet session, this browser gets a new session cookie naming it — never one it brought along.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const jar = await cookies();
  const login = openLogin(jar.get(LOGIN_COOKIE)?.value);
  if (!login) return problem(401, 'UNAUTHORIZED', 'No sign-in in progress (or it expired): start again');
  const b = await body(req);
  if (!b) return problem(400, 'INVALID_INPUT', 'The body must be a JSON object');
  // A decoy's sign-in (an email with no wallet) is refused exactly as a wrong proof would be.
  if (login.decoy) return verifyDecoy(login, b, signatureOf(req));
  const r = await forward(
    login.platformId,
    credentialVerify,
    'POST',
    `/auth/credentials/${login.credentialId}/verify`,
    {
      params: { id: login.credentialId },
      body: b.text,
      signature: signatureOf(req),
    },
  );
  if (r.status !== 200) return relay(r);
  const session = parsed(r) as { id: string; expiresAt: string; accountId: string };
  if (session.accountId !== login.accountId) return problem(500, 'INTERNAL_ERROR', 'The session is for another wallet');
  const { token } = await open({
    platformId: login.platformId,
    customerId: login.customerId,
    accountId: login.accountId,
    authSessionId: session.id,
    expiresAt: new Date(session.expiresAt),
  });
  jar.delete({ name: LOGIN_COOKIE, path: '/wallet' });
  // The cookie may outlive the wallet session by the sandbox clock's offset; the server checks
  // the session itself on every request.
  jar.set(COOKIE, token, cookieOptions(60 * 60));
  return json(200, { signedIn: true, sessionId: session.id, expiresAt: session.expiresAt });
});
