import { createHmac } from 'node:crypto';
import { now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { DomainError, invalidInput } from '../core/errors';
import { isSandbox } from '../core/mode';
import { newId } from '../core/ids';
import { sendMessage, type OutboundMessage } from '../notify/sender';
import * as platforms from '../platform/repository';
import { bytesToBase64url, bytesToHex, hexToBytes, isHex } from '../core/crypto/encoding';
import { openWithKey, signedBundle } from '../core/crypto/hpke';
import { generateKeyPair, parsePublicKey } from '../core/crypto/p256';
import { bundleSigner, seal, tokenKey, unseal } from '../core/crypto/vault';
import * as codes from '../codes/service';
import * as repo from './repository';

// One-time passwords for EMAIL_OTP and SMS_OTP credentials. Each challenge gets a fresh P-256
// target key; the client HPKE-seals {"otp_code","public_key"} to it, so the code never travels in
// the clear. The code is a one-time code of lib/codes (subject: the credential, bound to the
// challenge), which counts attempts atomically; the challenge row holds the sealed private half
// of the target key. The code itself exists in memory until the sender has it. Sandbox: the code
// is always 000000 and nothing is sent (real HPKE and signing still apply).
export const SANDBOX_OTP = '000000';
export const OTP_RESEND_INTERVAL_SECONDS = 30;
export const OTP_MAX_ATTEMPTS = 5;

export const WALLET_OTP: codes.CodePurpose = {
  name: 'WALLET_OTP',
  ttlSeconds: 300, // or the platform's embeddedWalletConfig.expirationSeconds
  maxAttempts: OTP_MAX_ATTEMPTS,
  resend: { afterSeconds: OTP_RESEND_INTERVAL_SECONDS },
  sandbox: { code: SANDBOX_OTP },
  // Alphanumeric codes are shown in capitals and compare case-insensitively.
  normalize: (code) => code.trim().toUpperCase(),
};

type WalletConfig = { appName?: string; otpLength?: number; alphanumeric?: boolean; expirationSeconds?: number };

async function walletConfig(platformId: string, tx: Tx): Promise<WalletConfig> {
  return ((await platforms.findById(platformId, tx))?.embeddedWalletConfig ?? {}) as WalletConfig;
}

export const targetPurpose = (challengeId: string) => `otp-target:${challengeId}`;

export interface IssuedOtp {
  otpEncryptionTargetBundle: string;
  /** Sent after the transaction commits (never inside it: a rollback must not leave a sent code). */
  deliver: () => Promise<void>;
}

/**
 * Issues a challenge for a credential whose row the caller has locked. Re-issues closer than
 * OTP_RESEND_INTERVAL_SECONDS apart are refused with 429 and Retry-After.
 */
export async function issueOtp(tx: Tx, credential: repo.AuthMethodRow): Promise<IssuedOtp> {
  const cfg = await walletConfig(credential.platformId, tx);
  const id = newId('Challenge');
  const issued = await codes.issue(tx, WALLET_OTP, {
    platformId: credential.platformId,
    subject: credential.id,
    binding: id,
    ttlSeconds: cfg.expirationSeconds ?? WALLET_OTP.ttlSeconds,
    format: { length: cfg.otpLength ?? 6, alphanumeric: cfg.alphanumeric },
  });
  const code = issued.code;
  const target = generateKeyPair();
  await repo.closeOtpChallenges(credential.id, issued.createdAt, tx);
  await repo.insertOtpChallenge(
    {
      id,
      platformId: credential.platformId,
      authMethodId: credential.id,
      targetPublicKey: bytesToHex(target.publicKey.uncompressed),
      targetSecretKeySealed: seal(target.secretKey, targetPurpose(id)),
      createdAt: issued.createdAt,
      expiresAt: issued.expiresAt,
    },
    tx,
  );
  target.secretKey.fill(0);
  const otpEncryptionTargetBundle = signedBundle(
    {
      targetPublic: bytesToHex(target.publicKey.uncompressed),
      organizationId: credential.platformId,
      credentialId: credential.id,
    },
    bundleSigner(),
  );
  const message: Omit<OutboundMessage, 'sentAt'> | null = isSandbox()
    ? null
    : {
        platformId: credential.platformId,
        channel: credential.type === 'SMS_OTP' ? 'SMS' : 'EMAIL',
        to: (credential.type === 'SMS_OTP' ? credential.phoneNumber : credential.email) ?? '',
        subject: `Your ${cfg.appName ?? 'wallet'} sign-in code`,
        text: `Your ${cfg.appName ?? 'wallet'} sign-in code is ${code}. It expires in ${Math.round((cfg.expirationSeconds ?? 300) / 60)} minute(s).`,
        purpose: 'WALLET_OTP',
      };
  return {
    otpEncryptionTargetBundle,
    deliver: async () => {
      if (!message) return;
      try {
        await sendMessage(message);
      } catch (err) {
        await codes.discard(issued.id); // never delivered: nothing can redeem it
        throw err;
      }
    },
  };
}

const rejected = (reason: string, message = `OTP verification failed: ${reason}`) =>
  new DomainError('UNAUTHORIZED', message, { reason });

function parseOtpBundle(text: string): { enc: Uint8Array; ciphertext: Uint8Array } {
  const bad = (why: string) =>
    invalidInput(`encryptedOtpBundle ${why}`, [{ field: 'encryptedOtpBundle', message: why }]);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad('must be a JSON string {"encappedPublic","ciphertext"}');
  }
  const { encappedPublic, ciphertext } = (v ?? {}) as Record<string, unknown>;
  if (typeof encappedPublic !== 'string' || !parsePublicKey(encappedPublic))
    throw bad('encappedPublic must be a P-256 public key in hex');
  if (typeof ciphertext !== 'string' || !isHex(ciphertext) || ciphertext.length < 34)
    throw bad('ciphertext must be hex');
  return { enc: hexToBytes(encappedPublic), ciphertext: hexToBytes(ciphertext) };
}

/** What an attempt that did not get through is answered (the code's state decides). */
function refusal(result: Exclude<codes.Verification, { ok: true }>, wrong: string): DomainError {
  switch (result.reason) {
    case 'WRONG':
      return rejected(wrong);
    case 'EXPIRED':
      return expiredCode();
    case 'NONE':
      return noCodePending();
    case 'EXHAUSTED': {
      const wait = Math.max(
        1,
        Math.ceil((result.issuedAt.getTime() + OTP_RESEND_INTERVAL_SECONDS * 1000 - now().getTime()) / 1000),
      );
      return new DomainError(
        'RATE_LIMITED',
        `Too many wrong codes; request a new code (in ${wait} s)`,
        { retryAfterSeconds: wait },
        { retryAfterSeconds: wait },
      );
    }
  }
}

/** What a wrong code is answered (a decoy's right one too, lib/wallet-auth/decoy.ts). */
export const wrongOtpCode = () => rejected('Invalid OTP code');

const noCodePending = () =>
  rejected(
    'No OTP code is pending',
    'No OTP code is pending for this credential; request one with a new challenge of the credential',
  );
const expiredCode = () =>
  rejected('OTP code expired', 'The OTP code expired; request a new one with a new challenge of the credential');

/**
 * First leg of OTP login: opens the sealed attempt with the pending challenge's target key and
 * checks the code. On success the code is spent and the client's TEK public key returned, for
 * the caller to bind into the signed retry. Each failure counts (one that does not decrypt too);
 * after OTP_MAX_ATTEMPTS the code is dead and further attempts get 429 until a new code is
 * requested. Attempts are counted in one conditional UPDATE each (lib/codes), so however many
 * arrive at once, no more than OTP_MAX_ATTEMPTS wrong codes are ever compared.
 */
export async function checkOtpAttempt(
  credential: repo.AuthMethodRow,
  encryptedOtpBundle: string,
): Promise<{ challengeId: string; tekPublicKey: string }> {
  const challenge = await repo.latestOtpChallenge(credential.id, db());
  if (!challenge || challenge.consumedAt) throw noCodePending();
  if (challenge.expiresAt <= now()) throw expiredCode();
  const attemptOn = (code: string | null) =>
    codes.verify(WALLET_OTP, { subject: credential.id, binding: challenge.id, code }, db());
  const { enc, ciphertext } = parseOtpBundle(encryptedOtpBundle);
  let plaintext: Uint8Array;
  try {
    const secret = unseal(challenge.targetSecretKeySealed, targetPurpose(challenge.id));
    try {
      plaintext = await openWithKey(secret, enc, ciphertext);
    } finally {
      secret.fill(0);
    }
  } catch {
    const result = await attemptOn(null);
    throw refusal(
      result.ok ? { ok: false, reason: 'NONE' } : result,
      'encryptedOtpBundle does not decrypt with the current otpEncryptionTargetBundle',
    );
  }
  let attempt: { otp_code?: unknown; public_key?: unknown };
  try {
    attempt = JSON.parse(new TextDecoder().decode(plaintext));
  } catch {
    throw invalidInput('The decrypted OTP bundle is not JSON {"otp_code","public_key"}', [
      { field: 'encryptedOtpBundle', message: 'must seal JSON {"otp_code","public_key"}' },
    ]);
  }
  const tek = typeof attempt.public_key === 'string' ? parsePublicKey(attempt.public_key) : null;
  if (typeof attempt.otp_code !== 'string' || !tek) {
    throw invalidInput('The decrypted OTP bundle must hold otp_code (string) and public_key (P-256 SEC1 hex)', [
      { field: 'encryptedOtpBundle', message: 'must seal {"otp_code","public_key"}' },
    ]);
  }
  const result = await attemptOn(attempt.otp_code);
  if (!result.ok) throw refusal(result, 'Invalid OTP code');
  return { challengeId: challenge.id, tekPublicKey: tek.compressedHex };
}

/** Spends the challenge (single use) inside the transaction that issues the signed-retry challenge. */
export async function spendOtp(tx: Tx, challengeId: string): Promise<void> {
  if (!(await repo.consumeOtpChallenge(challengeId, now(), tx)))
    throw rejected('No OTP code is pending', 'The OTP code was already used');
}

/**
 * The payloadToSign of OTP login: a verification token (JWT, HS256 under a service key) bound to
 * the client's TEK public key and the pending request. The client stamps it with the TEK.
 */
export function verificationToken(
  credentialId: string,
  tekPublicKey: string,
  requestId: string,
  expiresAt: Date,
): string {
  const enc = (o: object) => bytesToBase64url(new TextEncoder().encode(JSON.stringify(o)));
  const input = `${enc({ alg: 'HS256', typ: 'JWT', kid: 'corridor-otp' })}.${enc({
    iss: 'corridor',
    sub: credentialId,
    public_key: tekPublicKey,
    request_id: requestId,
    iat: Math.floor(now().getTime() / 1000),
    exp: Math.floor(expiresAt.getTime() / 1000),
  })}`;
  return `${input}.${createHmac('sha256', tokenKey('otp-verification')).update(input).digest('base64url')}`;
}
