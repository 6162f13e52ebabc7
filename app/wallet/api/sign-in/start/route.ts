import { cookies } from 'next/headers';
import { relyingParty } from '@/lib/wallet-auth/webauthn';
import { LOGIN_COOKIE, walletActor, walletOfEmail, walletPlatformId } from '@/lib/wallet-web/service';
import { startDecoy } from '@/lib/wallet-web/sign-in';
import { forward } from '../../../_server/forward';
import { body, cookieOptions, json, parsed, problem, refuseCrossSite, relay, walletRoute } from '../../../_server/http';
import { LOGIN_TTL_SECONDS, sealLogin } from '../../../_server/login';
import { credentialChallenge } from '../../../_server/routes';

// POST /wallet/api/sign-in/start – {email, method: EMAIL_OTP | PASSKEY, clientPublicKey?}: the
// challenge of the wallet's credential (an OTP sent by email and its HPKE target, or a WebAuthn
// challenge bound to the browser's new session key). The wallet and credential it is for are kept
// in a short-lived httpOnly cookie for the verification that follows. An email with no wallet (or
// no passkey, for a passkey sign-in) is answered the same way, from a decoy credential that sends
// nothing and can never sign in (lib/wallet-auth/decoy.ts): the answer tells no one who is a customer.
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

  const request = method === 'PASSKEY' ? { clientPublicKey: String(b?.value.clientPublicKey ?? '') } : undefined;
  const wallet = await walletOfEmail(platformId, email);
  const credentialId = method === 'PASSKEY' ? wallet?.passkeys[0]?.id : wallet?.emailOtpCredentialId;
  let login = { customerId: wallet?.customerId ?? '', accountId: wallet?.accountId ?? '', credentialId: '' };
  let challenge: Record<string, unknown>;
  if (wallet && credentialId) {
    const r = await forward(platformId, credentialChallenge, 'POST', `/auth/credentials/${credentialId}/challenge`, {
      params: { id: credentialId },
      ...(request ? { body: JSON.stringify(request) } : {}),
    });
    if (r.status !== 200) return relay(r);
    challenge = parsed(r);
    login.credentialId = credentialId;
  } else {
    const d = await startDecoy(platformId, email, method, request);
    challenge = d.challenge;
    login = {
      customerId: d.decoy.customerId,
      accountId: d.decoy.credential.accountId,
      credentialId: d.decoy.credential.id,
    };
  }
  (await cookies()).set(
    LOGIN_COOKIE,
    sealLogin({
      platformId,
      ...login,
      email,
      method,
      decoy: !(wallet && credentialId),
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
