import { randomBytes } from 'node:crypto';
import { addSeconds, now } from '../core/clock';
import { newId } from '../core/ids';
import { transaction, type Tx, db } from '../core/db';
import { DomainError, fieldError, invalidInput, notFound } from '../core/errors';
import { canonicalJson } from '../core/json';
import { isSandbox } from '../core/mode';
import { checkOidcToken } from './oidc';
import { parsePublicKey } from '../core/crypto/p256';
import { sha256Hex } from '../core/crypto/secrets';
import {
  acceptSignedRetry,
  bindRequest,
  consumePendingRequest,
  issueChallenge,
  openPendingRequest,
  recordSpentRequest,
  retryHeaders,
  SIGNED_REQUEST_TTL_SECONDS,
  type Challenge,
  type CredentialType,
  type SignedRequest,
} from './signed-retry';
import { passkeyAssertionFailed, verifyPasskeyAssertion } from './webauthn';
import { checkOtpAttempt, issueOtp, spendOtp, verificationToken, wrongOtpCode } from './otp';
import { toAuthMethod, type AuthSession } from './presenter';
import * as repo from './repository';
import type { CredentialVerify } from './schema';
import { openSession, SESSION_TTL_SECONDS, sessionKeyFor } from './sessions';
import { requireChannel } from '../notify/sender';

// Logging in with a credential: POST /auth/credentials/{id}/challenge issues what the credential
// needs (an OTP and its HPKE target bundle, or a passkey challenge bound to the client's key),
// POST /auth/credentials/{id}/verify turns a proof into a session.
/** Legacy literal assertion signature the sandbox still accepts in place of a WebAuthn signature. */
export const SANDBOX_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';

type Credential = repo.AuthMethodRow;

async function credentialOr404(platformId: string, id: string): Promise<Credential> {
  const credential = await repo.findCredential(platformId, id, db());
  if (!credential) throw notFound('REFERENCE_NOT_FOUND', `Credential ${id}`);
  return credential;
}

export async function challenge(
  platformId: string,
  id: string,
  clientPublicKey: string | undefined,
  request: SignedRequest,
) {
  return challengeFor(await credentialOr404(platformId, id), clientPublicKey, request, false);
}

/**
 * The challenge of a decoy credential (lib/wallet-auth/decoy.ts): the same lookups, throttle,
 * keys and rows as for a real one; the code is never sent.
 */
export async function decoyChallenge(
  credential: Credential,
  clientPublicKey: string | undefined,
  request: SignedRequest,
) {
  await repo.findCredential(credential.platformId, credential.id, db());
  return challengeFor(credential, clientPublicKey, request, true);
}

/**
 * The credential's row locked in `tx`. A decoy runs the same query and stands in for the row it
 * does not have (only where the login cannot go on to open a session).
 */
async function lockFor(tx: Tx, credential: Credential, decoy: boolean) {
  const row = await repo.lockCredential(credential.platformId, credential.id, tx);
  return decoy ? credential : row;
}

async function challengeFor(
  credential: Credential,
  clientPublicKey: string | undefined,
  request: SignedRequest,
  decoy: boolean,
) {
  const { platformId, id } = credential;
  if (credential.type === 'OAUTH') {
    throw invalidInput(
      'OAUTH credentials have no challenge step: verify the credential directly with a fresh oidcToken and a clientPublicKey',
      [{ field: 'id', message: 'must be an EMAIL_OTP, SMS_OTP or PASSKEY credential' }],
    );
  }
  if (credential.type === 'EMAIL_OTP' || credential.type === 'SMS_OTP') {
    // No provider for the channel: refused before anything is issued, decoy or not, so the
    // answer says nothing about whether the credential exists.
    requireChannel(credential.type === 'SMS_OTP' ? 'SMS' : 'EMAIL');
    const { row, otp } = await transaction(async (tx) => {
      const locked = await lockFor(tx, credential, decoy);
      if (!locked) throw notFound('REFERENCE_NOT_FOUND', `Credential ${id}`);
      return { row: locked, otp: await issueOtp(tx, locked) };
    });
    if (!decoy) await otp.deliver();
    return toAuthMethod(row, { otpEncryptionTargetBundle: otp.otpEncryptionTargetBundle });
  }
  if (!clientPublicKey)
    throw fieldError('clientPublicKey', 'clientPublicKey is required to challenge a PASSKEY credential', {
      pattern: '^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$',
    });
  if (!parsePublicKey(clientPublicKey)) throw fieldError('clientPublicKey', 'clientPublicKey is not a point on P-256');
  // The WebAuthn challenge is the SHA-256 (lowercase hex) of the session-creation request the
  // assertion authorizes, which names the client's key: the passkey signs for that key only.
  const sessionRequest = canonicalJson({
    organizationId: platformId,
    parameters: {
      authMethodId: id,
      expirationSeconds: String(SESSION_TTL_SECONDS),
      publicKey: clientPublicKey,
      userId: credential.accountId,
    },
    timestampMs: String(now().getTime()),
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
  });
  const challengeHex = sha256Hex(sessionRequest);
  const pending = await transaction((tx) =>
    issueChallenge(tx, {
      platformId,
      kind: 'PASSKEY_LOGIN',
      binding: { method: 'POST', path: request.path.replace(/\/challenge$/, '/verify'), bodyHash: '' },
      accountIds: [credential.accountId],
      payload: () => sessionRequest,
      context: { authMethodId: id, challenge: challengeHex, clientPublicKey },
    }),
  );
  return {
    ...toAuthMethod(credential),
    credentialId: credential.credentialId!,
    challenge: challengeHex,
    requestId: pending.requestId,
    expiresAt: pending.expiresAt,
  };
}

type VerifyOf<T extends CredentialVerify['type']> = Extract<CredentialVerify, { type: T }>;
const gone = (id: string) => notFound('REFERENCE_NOT_FOUND', `Credential ${id}`);

export async function verify(
  platformId: string,
  id: string,
  body: CredentialVerify,
  request: SignedRequest,
): Promise<Challenge | AuthSession> {
  return verifyFor(await credentialOr404(platformId, id), body, request, false);
}

/**
 * A proof for a decoy credential: checked like any other (attempts counted, the same refusals)
 * and refused as a wrong code or a failed assertion even if it checks out. Never a session.
 */
export async function decoyVerify(credential: Credential, body: CredentialVerify, request: SignedRequest) {
  await repo.findCredential(credential.platformId, credential.id, db());
  return verifyFor(credential, body, request, true);
}

async function verifyFor(
  credential: Credential,
  body: CredentialVerify,
  request: SignedRequest,
  decoy: boolean,
): Promise<Challenge | AuthSession> {
  const { platformId, id } = credential;
  if (body.type !== credential.type)
    throw fieldError('type', `type must be ${credential.type}, the type of credential ${id}`, {
      enum: [credential.type],
    });
  if (body.type === 'EMAIL_OTP' || body.type === 'SMS_OTP')
    return verifyOtp(platformId, credential, body, request, decoy);
  if (body.type === 'OAUTH') return verifyOauth(platformId, credential, body);
  return verifyPasskey(platformId, credential, body, request, decoy);
}

/**
 * An OTP login takes two calls: the encrypted code answers with a challenge bound to the client's
 * key, and the signed retry opens the session.
 */
async function verifyOtp(
  platformId: string,
  credential: Credential,
  body: VerifyOf<'EMAIL_OTP' | 'SMS_OTP'>,
  request: SignedRequest,
  decoy: boolean,
): Promise<Challenge | AuthSession> {
  const id = credential.id;
  const binding = bindRequest(request);
  const headers = retryHeaders(request);
  if (!headers) {
    const { challengeId, tekPublicKey } = await checkOtpAttempt(credential, body.encryptedOtpBundle);
    if (decoy) throw wrongOtpCode();
    return transaction(async (tx) => {
      if (!(await repo.lockCredential(platformId, id, tx))) throw gone(id);
      await spendOtp(tx, challengeId);
      return issueChallenge(tx, {
        platformId,
        kind: 'OTP_LOGIN',
        binding,
        accountIds: [credential.accountId],
        type: credential.type as CredentialType,
        signer: { boundPublicKey: tekPublicKey },
        payload: (requestId, expiresAt) => verificationToken(id, tekPublicKey, requestId, expiresAt),
      });
    });
  }
  return transaction(async (tx) => {
    const signed = await acceptSignedRetry(tx, { platformId, kind: 'OTP_LOGIN', binding, headers });
    const locked = await repo.lockCredential(platformId, id, tx);
    if (!locked) throw gone(id);
    return openSession(tx, locked, { publicKey: signed.publicKey });
  });
}

async function verifyOauth(platformId: string, credential: Credential, body: VerifyOf<'OAUTH'>) {
  await checkOidcToken(body.oidcToken, {
    expected: { iss: credential.oidcIssuer!, aud: credential.oidcAudience!, sub: credential.oidcSubject! },
    clientPublicKey: body.clientPublicKey,
  });
  const key = await sessionKeyFor(body.clientPublicKey);
  return transaction(async (tx) => {
    const locked = await repo.lockCredential(platformId, credential.id, tx);
    if (!locked) throw gone(credential.id);
    return openSession(tx, locked, key);
  });
}

/** A registered passkey as the WebAuthn check reads it. */
const stored = (c: Credential) => ({
  credentialId: c.credentialId!,
  publicKey: c.credentialPublicKey!,
  counter: Number(c.signCount ?? 0n),
  transports: c.transports,
});

/** A passkey assertion over the challenge that POST .../challenge issued under this Request-Id. */
async function verifyPasskey(
  platformId: string,
  credential: Credential,
  body: VerifyOf<'PASSKEY'>,
  request: SignedRequest,
  decoy: boolean,
) {
  const id = credential.id;
  const requestId = request.requestId;
  if (!requestId)
    throw new DomainError(
      'REQUEST_ID_MISSING',
      'Passkey verification needs the Request-Id header of the /challenge response',
    );
  return transaction(async (tx) => {
    const pending = await openPendingRequest(tx, platformId, requestId, ['PASSKEY_LOGIN']);
    const ctx = pending.context as { authMethodId: string; challenge: string; clientPublicKey: string };
    if (ctx.authMethodId !== id)
      throw new DomainError('UNAUTHORIZED', `Request-Id ${requestId} was issued for another credential`, {
        reason: 'Request-Id belongs to another credential',
      });
    const locked = await lockFor(tx, credential, decoy);
    if (!locked) throw gone(id);
    const legacyLiteral = !decoy && isSandbox() && body.assertion.signature === SANDBOX_PASSKEY_SIGNATURE;
    if (legacyLiteral) {
      if (body.assertion.credentialId !== locked.credentialId) {
        throw new DomainError(
          'UNAUTHORIZED',
          'Passkey assertion failed: credentialId is not the credential being verified',
          { reason: 'Passkey assertion failed: credentialId mismatch' },
        );
      }
    } else {
      const counter = await verifyPasskeyAssertion(ctx.challenge, body.assertion, stored(locked));
      if (decoy) throw passkeyAssertionFailed();
      await repo.setSignCount(id, BigInt(counter), now(), tx);
    }
    await consumePendingRequest(tx, pending);
    return openSession(tx, locked, await sessionKeyFor(ctx.clientPublicKey));
  });
}

const DISCOVERABLE_LOGIN = 'PASSKEY_DISCOVERABLE_LOGIN';

/** A discoverable sign-in in progress, held sealed by the browser (never stored here). */
export interface DiscoverableLogin {
  requestId: string;
  /** The canonical login request whose SHA-256 (hex) the passkey signs. */
  loginRequest: string;
  clientPublicKey: string;
  /** On the platform's clock, as the verification checks it. */
  expiresAt: string;
}

/**
 * A passkey sign-in that names no credential (a discoverable passkey: the browser offers the
 * passkeys it holds for this site and the assertion names the one chosen — or, for a sign-in by
 * email, any of the wallet's passkeys the caller lists). The wallet pages' own flow, beside the
 * API's per-credential one above (where a challenge is one credential's, and only that credential
 * verifies it): the challenge is the SHA-256 of a login request naming the client's new session
 * key and a random nonce, single use, five minutes.
 * Anyone may ask for one, so nothing is written: the caller hands the login to the browser sealed
 * (app/wallet/_server/login.ts), and a row is written only when a registered passkey answers it
 * (which also makes it single use).
 */
export function discoverableChallenge(
  platformId: string,
  clientPublicKey: string,
): DiscoverableLogin & { challenge: string } {
  if (!parsePublicKey(clientPublicKey)) throw fieldError('clientPublicKey', 'clientPublicKey is not a point on P-256');
  const loginRequest = canonicalJson({
    organizationId: platformId,
    parameters: { expirationSeconds: String(SESSION_TTL_SECONDS), publicKey: clientPublicKey },
    nonce: randomBytes(16).toString('hex'),
    timestampMs: String(now().getTime()),
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
  });
  const expiresAt = addSeconds(now(), SIGNED_REQUEST_TTL_SECONDS).toISOString();
  return { requestId: newId('Request'), loginRequest, clientPublicKey, expiresAt, challenge: sha256Hex(loginRequest) };
}

/**
 * The assertion of a discoverable passkey over the challenge of `pending`: the credential is the
 * wallet's PASSKEY with the assertion's WebAuthn credential id — whichever of the passkeys offered
 * answered; the session opens for the key the challenge named. An unknown passkey is refused like
 * a bad signature; `admit` (the caller's rule for whose wallet may sign in here) runs before the
 * session opens. The request is recorded as spent under its id in the same transaction: a second
 * answer to it is refused.
 *
 * `decoys`: the passkeys a sign-in by email offered for an email with no wallet (decoy.ts). An
 * assertion naming one is checked against it as against a registered passkey — the same queries,
 * the same refusal for a forged signature — and refused even if it checks out.
 */
export async function verifyDiscoverable(
  platformId: string,
  body: CredentialVerify,
  pending: DiscoverableLogin,
  path: string,
  admit: (credential: Credential, tx: Tx) => Promise<void>,
  decoys: readonly Credential[] = [],
): Promise<{ credential: Credential; session: AuthSession }> {
  if (body.type !== 'PASSKEY') throw fieldError('type', 'type must be PASSKEY', { enum: ['PASSKEY'] });
  return transaction(async (tx) => {
    const at = now();
    if (!(new Date(pending.expiresAt) > at))
      throw new DomainError('UNAUTHORIZED', 'The passkey sign-in expired: start again', {
        reason: 'Signed request expired',
      });
    const decoy = decoys.find((c) => c.credentialId === body.assertion.credentialId);
    const found = (await repo.findPasskeyByCredentialId(platformId, body.assertion.credentialId, tx)) ?? decoy;
    const locked = found ? await lockFor(tx, found, found === decoy) : null;
    if (!locked?.credentialId || !locked.credentialPublicKey)
      throw new DomainError('UNAUTHORIZED', 'Passkey assertion failed: this passkey is not registered with a wallet', {
        reason: 'Passkey assertion failed: unknown passkey',
      });
    const counter = await verifyPasskeyAssertion(sha256Hex(pending.loginRequest), body.assertion, stored(locked));
    if (decoy) throw passkeyAssertionFailed();
    await admit(locked, tx);
    await repo.setSignCount(locked.id, BigInt(counter), at, tx);
    await recordSpentRequest(tx, {
      platformId,
      id: pending.requestId,
      kind: DISCOVERABLE_LOGIN,
      binding: { method: 'POST', path, bodyHash: '' },
      payloadToSign: pending.loginRequest,
      expiresAt: new Date(pending.expiresAt),
    });
    return { credential: locked, session: await openSession(tx, locked, await sessionKeyFor(pending.clientPublicKey)) };
  });
}
