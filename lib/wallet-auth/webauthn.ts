import { DomainError, invalidInput } from '../core/errors';
import { base64urlToBytes, bytesToBase64url } from '../core/crypto/encoding';
import { publicBaseUrl } from '../core/mode';

// The WebAuthn ceremonies for PASSKEY credentials, through @simplewebauthn/server: attestation at
// registration, assertion at login (challenge, origin, RP ID hash, user presence, signature,
// signature counter). The relying party is configuration: CORRIDOR_WEBAUTHN_RP_ID and
// CORRIDOR_WEBAUTHN_ORIGINS (comma-separated), defaulting to the host and origin of
// CORRIDOR_PUBLIC_URL (http://localhost:$PORT), where the wallet pages are served.
// The library (and its ASN.1/X.509 stack) is loaded on first use, not with every auth route.
const webauthn = () => import('@simplewebauthn/server');
export function relyingParty(): { rpId: string; origins: string[] } {
  const base = new URL(publicBaseUrl());
  const origins = (process.env.CORRIDOR_WEBAUTHN_ORIGINS || base.origin)
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return { rpId: process.env.CORRIDOR_WEBAUTHN_RP_ID || base.hostname, origins };
}

const failed = (what: string, err: unknown) =>
  new DomainError('UNAUTHORIZED', `Passkey ${what} failed: ${(err as Error).message}`, {
    reason: `Passkey ${what} failed: ${(err as Error).message}`,
  });

/** What an assertion whose signature does not verify is answered. */
export const passkeyAssertionFailed = () => failed('assertion', new Error('signature does not verify'));

function requireBase64url(value: string, field: string): void {
  try {
    base64urlToBytes(value);
  } catch {
    throw invalidInput(`${field} must be base64url`, [{ field, message: 'must be base64url-encoded' }]);
  }
}

export interface Attestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[];
}

export interface RegisteredPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** Verifies a registration (attestation) against the integrator's base64url challenge. */
export async function verifyPasskeyRegistration(challenge: string, a: Attestation): Promise<RegisteredPasskey> {
  requireBase64url(a.credentialId, 'attestation.credentialId');
  requireBase64url(a.clientDataJson, 'attestation.clientDataJson');
  requireBase64url(a.attestationObject, 'attestation.attestationObject');
  const rp = relyingParty();
  let result;
  try {
    result = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: {
        id: a.credentialId,
        rawId: a.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: a.clientDataJson,
          attestationObject: a.attestationObject,
          transports: a.transports as never,
        },
        clientExtensionResults: {},
      },
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      requireUserPresence: true,
      requireUserVerification: false,
    });
  } catch (err) {
    throw failed('attestation', err);
  }
  if (!result.verified) throw failed('attestation', new Error('not verified'));
  const credential = result.registrationInfo.credential;
  if (credential.id !== a.credentialId)
    throw failed('attestation', new Error('credentialId differs from the credential in the attestation'));
  return {
    credentialId: credential.id,
    publicKey: bytesToBase64url(credential.publicKey),
    counter: credential.counter,
    transports: a.transports ?? [],
  };
}

export interface Assertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/**
 * Verifies an assertion over the hex challenge (UTF-8 encoded as the WebAuthn challenge bytes,
 * so clientDataJSON carries base64url(utf8(hex))). Returns the new signature counter.
 *
 * The counter is checked here, after the signature (the library checks it before): an assertion
 * nobody could sign is refused for its signature whatever the passkey's stored counter, so the
 * refusal says nothing about whether the passkey was ever used — a used wallet's passkey and a
 * decoy's (decoy.ts) are refused alike.
 */
export async function verifyPasskeyAssertion(
  challengeHex: string,
  a: Assertion,
  stored: { credentialId: string; publicKey: string; counter: number; transports: string[] },
): Promise<number> {
  for (const f of ['credentialId', 'clientDataJson', 'authenticatorData', 'signature'] as const)
    requireBase64url(a[f], `assertion.${f}`);
  if (a.credentialId !== stored.credentialId)
    throw failed('assertion', new Error('credentialId is not the credential being verified'));
  const rp = relyingParty();
  let result;
  try {
    result = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response: {
        id: a.credentialId,
        rawId: a.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: a.clientDataJson,
          authenticatorData: a.authenticatorData,
          signature: a.signature,
          ...(a.userHandle ? { userHandle: a.userHandle } : {}),
        },
        clientExtensionResults: {},
      },
      expectedChallenge: bytesToBase64url(new TextEncoder().encode(challengeHex)),
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpId,
      credential: {
        id: stored.credentialId,
        publicKey: base64urlToBytes(stored.publicKey) as Uint8Array<ArrayBuffer>,
        counter: 0,
        transports: stored.transports as never,
      },
      requireUserVerification: false,
    });
  } catch (err) {
    throw failed('assertion', err);
  }
  if (!result.verified) throw passkeyAssertionFailed();
  const counter = result.authenticationInfo.newCounter;
  // A counter that did not move past the stored one: a cloned authenticator (WebAuthn §6.1.1);
  // authenticators that keep no counter send 0 every time.
  if ((counter > 0 || stored.counter > 0) && counter <= stored.counter)
    throw failed('assertion', new Error(`the signature counter ${counter} did not move past ${stored.counter}`));
  return counter;
}
