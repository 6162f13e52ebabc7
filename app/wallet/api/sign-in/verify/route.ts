import { cookies } from 'next/headers';
import { isChallenge } from '@/lib/wallet-auth/presenter';
import { verifyDiscoverableSignIn, verifySignIn } from '@/lib/wallet-web/sign-in-commands';
import { COOKIE, LOGIN_COOKIE, open } from '@/lib/wallet-web/service';
import {
  asPages,
  body,
  cookieOptions,
  json,
  problem,
  refuseCrossSite,
  signatureOf,
  walletRoute,
} from '../../../_server/http';
import { openLogin } from '../../../_server/login';

// POST /wallet/api/sign-in/verify – the proof for the credential of the sign-in in progress: an
// HPKE-sealed OTP (answered 202 with a payload for the browser's key to stamp, then repeated with
// the stamp) or a passkey assertion (with the challenge's Request-Id). When the wallet session
// opens, this browser gets a new session cookie naming it — never one it brought along.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const jar = await cookies();
  const login = openLogin(jar.get(LOGIN_COOKIE)?.value);
  if (!login) return problem(401, 'UNAUTHORIZED', 'No sign-in in progress (or it expired): start again');
  const b = await body(req);
  if (login.discoverable) {
    const d = await asPages(login.platformId, verifyDiscoverableSignIn, {
      proof: b?.value ?? null,
      pending: login.discoverable,
      // A confirmation ("confirm it's you") or a sign-in by email names the wallet that must answer.
      ...(login.accountId ? { expectedAccountId: login.accountId } : {}),
      ...(login.decoy ? { decoyEmail: login.email } : {}),
    });
    return signIn({ platformId: login.platformId, customerId: d.customerId, accountId: d.accountId }, d.session);
  }
  const result = await asPages(login.platformId, verifySignIn, {
    login: {
      customerId: login.customerId,
      accountId: login.accountId,
      credentialId: login.credentialId,
      email: login.email,
      method: login.method,
      decoy: login.decoy,
    },
    proof: b?.value ?? null,
    rawBody: b?.text ?? '',
    signature: signatureOf(req),
  });
  if (isChallenge(result)) return json(202, result);
  return signIn(login, result);
});

/** The wallet session opened: this browser's session cookie names it. */
async function signIn(
  who: { platformId: string; customerId: string; accountId: string },
  result: { id: string; expiresAt: Date | string },
): Promise<Response> {
  const jar = await cookies();
  const { token } = await open({
    platformId: who.platformId,
    customerId: who.customerId,
    accountId: who.accountId,
    authSessionId: result.id,
    expiresAt: new Date(result.expiresAt),
  });
  jar.delete({ name: LOGIN_COOKIE, path: '/wallet' });
  // The cookie may outlive the wallet session by the sandbox clock's offset; the server checks
  // the session itself on every request.
  jar.set(COOKIE, token, cookieOptions(60 * 60));
  return json(200, { signedIn: true, sessionId: result.id, expiresAt: result.expiresAt });
}
