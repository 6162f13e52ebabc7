import { DomainError, fieldError, invalidInput } from '../core/errors';
import { base64urlToBytes, bytesToBase64url } from '../core/crypto/encoding';
import { relyingParty } from '../wallet-auth/webauthn';

// PASSKEY factors: the real WebAuthn ceremonies through @simplewebauthn/server, with the options
// and responses in the standard JSON forms the browser's WebAuthn API produces
// (PublicKeyCredentialCreationOptionsJSON / RegistrationResponseJSON, and the request options /
// AuthenticationResponseJSON). The relying party is the one the wallet's passkeys use
// (CORRIDOR_WEBAUTHN_RP_ID, CORRIDOR_WEBAUTHN_ORIGINS); the caller echoes the origin the device
// ran the ceremony against, which must be one of the allowed origins.
const webauthn = () => import('@simplewebauthn/server');
const RP_NAME = 'Corridor';
export const CEREMONY_SECONDS = 5 * 60;

export interface StoredPasskey {
  credentialId: string;
  publicKey: string;
  counter: bigint;
  transports: string[];
}

export function allowed(): { allowedOrigins: string[]; relyingPartyId: string } {
  const rp = relyingParty();
  return { allowedOrigins: rp.origins, relyingPartyId: rp.rpId };
}

function checkOrigin(origin: string): void {
  if (!relyingParty().origins.includes(origin)) {
    throw fieldError('origin', `origin ${origin} is not one of the allowed origins`, { enum: relyingParty().origins });
  }
}

const refused = (what: string, err: unknown) =>
  invalidInput(`The passkey ${what} does not verify: ${(err as Error).message}`, [
    { field: what === 'registration' ? 'credential' : 'passkeyAssertion', message: (err as Error).message },
  ]);

export async function registrationOptions(customer: { id: string; label: string }, exclude: StoredPasskey[]) {
  return (await webauthn()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty().rpId,
    userName: customer.label,
    userID: new TextEncoder().encode(customer.id),
    attestationType: 'none',
    timeout: CEREMONY_SECONDS * 1000,
    excludeCredentials: exclude.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Verifies a RegistrationResponseJSON against the challenge issued at enrollment start. */
export async function verifyRegistration(
  challenge: string,
  origin: string,
  credential: Record<string, unknown>,
): Promise<StoredPasskey> {
  checkOrigin(origin);
  let result;
  try {
    result = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: credential as never,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: relyingParty().rpId,
      requireUserPresence: true,
      requireUserVerification: false,
    });
  } catch (err) {
    throw refused('registration', err);
  }
  if (!result.verified) throw refused('registration', new Error('not verified'));
  const c = result.registrationInfo.credential;
  const transports = (credential.response as { transports?: unknown } | undefined)?.transports;
  return {
    credentialId: c.id,
    publicKey: bytesToBase64url(c.publicKey),
    counter: BigInt(c.counter),
    transports: Array.isArray(transports) ? transports.filter((t): t is string => typeof t === 'string') : [],
  };
}

export async function assertionOptions(passkey: StoredPasskey, challenge?: Uint8Array) {
  return (await webauthn()).generateAuthenticationOptions({
    rpID: relyingParty().rpId,
    ...(challenge ? { challenge: Uint8Array.from(challenge) } : {}),
    timeout: CEREMONY_SECONDS * 1000,
    allowCredentials: [{ id: passkey.credentialId, transports: passkey.transports }],
    userVerification: 'preferred',
  });
}

/** Verifies an AuthenticationResponseJSON over `challenge`; returns the new signature counter. */
export async function verifyAssertion(
  challenge: string,
  origin: string,
  assertion: Record<string, unknown>,
  passkey: StoredPasskey,
): Promise<bigint> {
  checkOrigin(origin);
  if (assertion.id !== passkey.credentialId)
    throw refused('assertion', new Error('the assertion is not by the enrolled passkey'));
  let result;
  try {
    result = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response: assertion as never,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: relyingParty().rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: base64urlToBytes(passkey.publicKey) as Uint8Array<ArrayBuffer>,
        counter: Number(passkey.counter),
        transports: passkey.transports as never,
      },
      requireUserVerification: false,
    });
  } catch (err) {
    throw refused('assertion', err);
  }
  if (!result.verified) throw refused('assertion', new Error('signature does not verify'));
  return BigInt(result.authenticationInfo.newCounter);
}

export function passkeyAlreadyEnrolled(customerId: string): DomainError {
  return new DomainError(
    'PASSKEY_ALREADY_ENROLLED',
    `Customer ${customerId} already has a passkey; delete that factor first`,
  );
}
