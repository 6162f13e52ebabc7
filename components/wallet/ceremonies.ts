'use client';
import { startAuthentication, WebAuthnAbortService } from '@simplewebauthn/browser';
import { call, signed } from './api';
import { newSessionKey, saveSessionKey, sealOtp, type SessionKey } from './crypto';

// The sign-in ceremonies, shared by the sign-in card and by "confirm it's you" (re-authenticating
// in place, components/wallet/reauth.tsx). Each makes a new session key in this browser and
// leaves it saved once the session opened; the server swaps this browser's session cookie.
const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * A passkey sign-in. With an email, any passkey of that wallet (allowCredentials names each);
 * with `confirm`, any of the signed-in wallet's passkeys ("confirm it's you"); otherwise a
 * discoverable passkey the browser offers (no allowCredentials) — in the email
 * field's autofill when `autofill` (WebAuthn conditional UI), else in the browser's own dialog.
 */
export async function passkeySignIn(
  opts: { email?: string; autofill?: boolean; confirm?: boolean } = {},
): Promise<SessionKey> {
  const key = await newSessionKey();
  const r = await call('POST', '/sign-in/start', {
    ...(opts.email ? { email: opts.email } : {}),
    ...(opts.confirm ? { confirm: true } : {}),
    method: 'PASSKEY',
    clientPublicKey: key.publicKey,
  });
  const assertion = await startAuthentication({
    optionsJSON: {
      // The service's challenge is hex text; WebAuthn signs its UTF-8 bytes.
      challenge: b64url(r.data.challenge),
      // Each of the wallet's passkeys for a sign-in by email or a confirmation (the device at hand
      // answers with whichever it holds), none for a discoverable sign-in (the browser offers
      // this site's passkeys).
      allowCredentials: ((r.data.allowCredentials as string[] | undefined) ?? []).map((id) => ({
        id,
        type: 'public-key' as const,
      })),
      rpId: r.data.rpId,
      userVerification: 'preferred',
      timeout: 120_000,
    },
    useBrowserAutofill: opts.autofill ?? false,
  });
  await call(
    'POST',
    '/sign-in/verify',
    {
      type: 'PASSKEY',
      assertion: {
        credentialId: assertion.id,
        clientDataJson: assertion.response.clientDataJSON,
        authenticatorData: assertion.response.authenticatorData,
        signature: assertion.response.signature,
        ...(assertion.response.userHandle ? { userHandle: assertion.response.userHandle } : {}),
      },
    },
    { 'Request-Id': r.data.requestId },
  );
  await saveSessionKey(key);
  return key;
}

/** Ends a passkey request still waiting in the email field's autofill (another way was chosen). */
export const cancelPasskeyAutofill = () => WebAuthnAbortService.cancelCeremony();

export interface PendingCode {
  bundle: string;
  key: SessionKey;
  sentAt: number;
}

/** Asks for an email code: the HPKE target the code is sealed to, and the new session key. */
export async function sendCode(email: string): Promise<PendingCode> {
  const key = await newSessionKey();
  const r = await call('POST', '/sign-in/start', { email, method: 'EMAIL_OTP' });
  return { bundle: r.data.otpEncryptionTargetBundle as string, key, sentAt: Date.now() };
}

/** The code sealed in this browser, then the session key stamps the login (a signed retry). */
export async function verifyCode(pending: PendingCode, code: string): Promise<SessionKey> {
  const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await sealOtp(pending.bundle, code.trim(), pending.key) };
  await signed('POST', '/sign-in/verify', body, pending.key);
  await saveSessionKey(pending.key);
  return pending.key;
}
