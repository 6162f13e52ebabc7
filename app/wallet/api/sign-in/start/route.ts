import { cookies } from 'next/headers';
import { relyingParty } from '@/lib/wallet-auth/webauthn';
import { LOGIN_COOKIE, walletActor, walletOfEmail, walletPlatformId } from '@/lib/wallet-web/service';
import { forward } from '../../../_server/forward';
import { body, cookieOptions, json, parsed, problem, refuseCrossSite, relay, walletRoute } from '../../../_server/http';
import { LOGIN_TTL_SECONDS, sealLogin } from '../../../_server/login';
import { credentialChallenge } from '../../../_server/routes';

// POST /wallet/api/sign-in/start – {email, method: EMAIL_OTP | PASSKEY, clientPublicKey?}: the
// challenge of the wallet's credential (an OTP sent by email and its HPKE target, or a WebAuthn
// challenge bound to the browser's new session key). The wallet and credential it is for are kept
// in a short-lived httpOnly cookie for the verification that follows.
export const POST = walletRoute(async (req: Request) => {
  const refused = refuseCrossSite(req);
  if (refused) return refused;
  const b = await body(req);
  const email = typeof b?.value.email === 'string' ? b.value.email.trim() : '';
  const method = b?.value.method;
  if (!email || email.length > 254 || (method !== 'EMAIL_OTP' && method !== 'PASSKEY'))
    return problem(400, 'INVALID_INPUT', 'Give an email and a method (EMAIL_OTP or PASSKEY)');
  const platformId = await walletPlatformId();
  if (!platformId) return problem(503, 'SERVICE_UNAVAILABLE', 'No platform is set up yet');
  await walletActor(platformId); // 503 when the configured platform does not exist
  const wallet = await walletOfEmail(platformId, email);
  if (!wallet) return problem(404, 'USER_NOT_FOUND', 'No wallet is registered with this email');

  let credentialId = wallet.emailOtpCredentialId;
  let request: string | undefined;
  if (method === 'PASSKEY') {
    const passkey = wallet.passkeys[0];
    if (!passkey)
      return problem(
        404,
        'REFERENCE_NOT_FOUND',
        'This wallet has no passkey yet: sign in with an email code and add one',
      );
    credentialId = passkey.id;
    request = JSON.stringify({ clientPublicKey: String(b?.value.clientPublicKey ?? '') });
  }
  const r = await forward(platformId, credentialChallenge, 'POST', `/auth/credentials/${credentialId}/challenge`, {
    params: { id: credentialId },
    ...(request ? { body: request } : {}),
  });
  if (r.status !== 200) return relay(r);
  const challenge = parsed(r);
  (await cookies()).set(
    LOGIN_COOKIE,
    sealLogin({
      platformId,
      customerId: wallet.customerId,
      accountId: wallet.accountId,
      credentialId,
      expiresAtMs: Date.now() + LOGIN_TTL_SECONDS * 1000,
    }),
    cookieOptions(LOGIN_TTL_SECONDS),
  );
  return method === 'EMAIL_OTP'
    ? json(200, { method, otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle })
    : json(200, {
        method,
        credentialId: challenge.credentialId,
        challenge: challenge.challenge,
        requestId: challenge.requestId,
        rpId: relyingParty().rpId,
      });
});
