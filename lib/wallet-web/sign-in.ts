import { runAs } from '../core/context';
import { API_BASE } from '../core/mode';
import { parseBodyOrThrow } from '../core/validation';
import { decoyCredential, type Decoy } from '../wallet-auth/decoy';
import { decoyChallenge, decoyVerify } from '../wallet-auth/login';
import { credentialVerify } from '../wallet-auth/schema';
import type { SignedRequest } from '../wallet-auth/signed-retry';
import { walletActor } from './service';

// The email-code sign-in of an email that has no wallet: the login's own code on a decoy
// credential (lib/wallet-auth/decoy.ts), run as the wallet pages on the platform's clock, exactly
// as the API route would run it for a real credential — so the answer, its refusals and its
// throttle are those of a real customer's sign-in. It never opens a session. (A passkey sign-in by
// email stands on a decoy's passkeys instead: sign-in-commands.ts passkeyStart.)
const request = (credentialId: string, step: 'challenge' | 'verify', rest: Partial<SignedRequest> = {}) => ({
  method: 'POST',
  path: `${API_BASE}/auth/credentials/${credentialId}/${step}`,
  rawBody: '',
  stamp: null,
  requestId: null,
  ...rest,
});

/** The challenge a decoy answers the start of an email-code sign-in with (a code never sent). */
export async function startDecoy(
  platformId: string,
  email: string,
): Promise<{ decoy: Decoy; challenge: Awaited<ReturnType<typeof decoyChallenge>> }> {
  const decoy = decoyCredential(platformId, email, 'EMAIL_OTP');
  const challenge = await runAs(await walletActor(platformId), () =>
    decoyChallenge(decoy.credential, undefined, request(decoy.credential.id, 'challenge')),
  );
  return { decoy, challenge };
}

/** The verification of a decoy sign-in: refused as a real one with the same proof would be. */
export async function verifyDecoy(
  login: { platformId: string; email: string },
  body: { text: string; value: unknown },
  signature: { stamp: string | null; requestId: string | null },
): Promise<never> {
  const { credential } = decoyCredential(login.platformId, login.email, 'EMAIL_OTP');
  await runAs(await walletActor(login.platformId), async () => {
    const parsed = parseBodyOrThrow(credentialVerify, body.value);
    const signed = request(credential.id, 'verify', {
      rawBody: body.text,
      stamp: signature.stamp,
      requestId: signature.requestId?.trim() || null,
    });
    await decoyVerify(credential, parsed, signed);
  });
  throw new Error('A decoy sign-in was accepted; it never may be');
}
