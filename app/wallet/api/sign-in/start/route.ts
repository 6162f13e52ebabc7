import { cookies } from 'next/headers';
import type { DiscoverableLogin } from '@/lib/wallet-auth/login';
import { relyingParty } from '@/lib/wallet-auth/webauthn';
import { startConfirmSignIn, startDiscoverableSignIn, startSignIn } from '@/lib/wallet-web/sign-in-commands';
import { COOKIE, LOGIN_COOKIE, resolve, walletPlatformId } from '@/lib/wallet-web/service';
import { asPages, body, cookieOptions, json, problem, refuseCrossSite, walletRoute } from '../../../_server/http';
import { LOGIN_TTL_SECONDS, sealLogin } from '../../../_server/login';

// POST /wallet/api/sign-in/start – {email, method: EMAIL_OTP | PASSKEY, clientPublicKey?}: for
// EMAIL_OTP the challenge of the wallet's email credential (an OTP sent by email and its HPKE
// target); for PASSKEY a WebAuthn challenge bound to the browser's new session key that any of the
// wallet's passkeys answers (allowCredentials lists each). The wallet (and credential) it is for
// are kept in a short-lived httpOnly cookie for the verification that follows. An email with no
// wallet (or no passkey, for a passkey sign-in) is answered the same way, from a decoy that sends
// nothing and can never sign in (lib/wallet-auth/decoy.ts): the answer tells no one who is a customer.
// {method: PASSKEY, clientPublicKey} with no email is a discoverable passkey sign-in: a challenge
// for whichever passkey of this site the browser offers (no allowCredentials).
// {method: PASSKEY, confirm: true, clientPublicKey} is "confirm it's you" in a signed-in browser:
// the same, limited to this wallet's passkeys (allowCredentials), and it signs in again only as
// this wallet.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const b = await body(req);
  const platformId = await walletPlatformId();
  if (!platformId) return problem(503, 'SERVICE_UNAVAILABLE', 'No platform is set up yet');
  if (b?.value.method === 'PASSKEY' && b.value.confirm === true) return confirming(platformId, b.value.clientPublicKey);
  if (b?.value.method === 'PASSKEY' && (b.value.email === undefined || b.value.email === ''))
    return discoverable(platformId, b.value.clientPublicKey);
  const started = await asPages(platformId, startSignIn, b?.value ?? null);
  if (started.method === 'PASSKEY')
    return pendingDiscoverable(
      platformId,
      { ...started.challenge, allowCredentials: started.allowCredentials },
      {
        ...started.login,
        email: started.email,
        decoy: started.decoy,
      },
    );
  const { challenge, login, decoy } = started;
  (await cookies()).set(
    LOGIN_COOKIE,
    sealLogin({
      platformId,
      ...login,
      email: started.email,
      method: 'EMAIL_OTP',
      decoy,
      expiresAtMs: Date.now() + LOGIN_TTL_SECONDS * 1000,
    }),
    cookieOptions(LOGIN_TTL_SECONDS),
  );
  return json(200, { method: 'EMAIL_OTP', otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle });
});

async function discoverable(platformId: string, clientPublicKey: unknown): Promise<Response> {
  const c = await asPages(platformId, startDiscoverableSignIn, { clientPublicKey });
  return pendingDiscoverable(platformId, c, null);
}

async function confirming(platformId: string, clientPublicKey: unknown): Promise<Response> {
  const session = await resolve((await cookies()).get(COOKIE)?.value);
  if (!session || session.platformId !== platformId)
    return problem(401, 'UNAUTHORIZED', 'Not signed in (or the wallet session ended): sign in again');
  const c = await asPages(platformId, startConfirmSignIn, { clientPublicKey, accountId: session.accountId });
  return pendingDiscoverable(platformId, c, session);
}

/**
 * The passkey sign-in in progress, in its sealed cookie; for a confirmation or a sign-in by email,
 * whose wallet must answer (and, by email, the email and whether a decoy stands for the wallet).
 */
async function pendingDiscoverable(
  platformId: string,
  c: DiscoverableLogin & { challenge: string; allowCredentials?: string[] },
  wallet: { customerId: string; accountId: string; email?: string; decoy?: boolean } | null,
): Promise<Response> {
  (await cookies()).set(
    LOGIN_COOKIE,
    sealLogin({
      platformId,
      customerId: wallet?.customerId ?? '',
      accountId: wallet?.accountId ?? '',
      credentialId: '',
      email: wallet?.email ?? '',
      method: 'PASSKEY',
      decoy: wallet?.decoy ?? false,
      expiresAtMs: Date.now() + LOGIN_TTL_SECONDS * 1000,
      discoverable: {
        requestId: c.requestId,
        loginRequest: c.loginRequest,
        clientPublicKey: c.clientPublicKey,
        expiresAt: c.expiresAt,
      },
    }),
    cookieOptions(LOGIN_TTL_SECONDS),
  );
  return json(200, {
    method: 'PASSKEY',
    discoverable: true,
    challenge: c.challenge,
    requestId: c.requestId,
    rpId: relyingParty().rpId,
    ...(c.allowCredentials ? { allowCredentials: c.allowCredentials } : {}),
  });
}
