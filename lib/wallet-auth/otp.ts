import { createHmac, randomInt } from 'node:crypto';
import { addSeconds, now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { DomainError, invalidInput } from '../core/errors';
import { isSandbox } from '../core/mode';
import { newId } from '../core/ids';
import { sendMessage, type OutboundMessage } from '../notify/sender';
import * as platforms from '../platform/repository';
import { bytesToBase64url, bytesToHex, hexToBytes, isHex } from '../auth/encoding';
import { openWithKey, signedBundle } from '../auth/hpke';
import { generateKeyPair, parsePublicKey } from '../auth/p256';
import { bundleSigner, seal, tag, tagMatches, tokenKey, unseal } from '../auth/vault';
import * as repo from './repository';

// One-time passwords for EMAIL_OTP and SMS_OTP credentials. Each challenge gets a fresh P-256
// target key; the client HPKE-seals {"otp_code","public_key"} to it, so the code never travels in
// the clear. The database holds only a keyed MAC of the code and the sealed private half of the
// target key; the code itself exists in memory until the sender has it. Sandbox: the code is
// always 000000 and nothing is sent (real HPKE and signing still apply).
export const SANDBOX_OTP = '000000';
export const OTP_RESEND_INTERVAL_SECONDS = 30;
export const OTP_MAX_ATTEMPTS = 5;

type WalletConfig = { appName?: string; otpLength?: number; alphanumeric?: boolean; expirationSeconds?: number };

async function walletConfig(platformId: string, tx?: Tx): Promise<WalletConfig> {
  return ((await platforms.findById(platformId, tx))?.embeddedWalletConfig ?? {}) as WalletConfig;
}

function newCode(cfg: WalletConfig): string {
  if (isSandbox()) return SANDBOX_OTP;
  const alphabet = cfg.alphanumeric ? 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' : '0123456789';
  return Array.from({ length: cfg.otpLength ?? 6 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

const normalizeCode = (code: string) => code.trim().toUpperCase();
const codePurpose = (challengeId: string) => `otp-code:${challengeId}`;
const targetPurpose = (challengeId: string) => `otp-target:${challengeId}`;

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
  const at = now();
  const last = await repo.latestOtpChallenge(credential.id, tx);
  if (last) {
    const wait = Math.ceil((last.createdAt.getTime() + OTP_RESEND_INTERVAL_SECONDS * 1000 - at.getTime()) / 1000);
    if (wait > 0) {
      throw new DomainError(
        'RATE_LIMITED',
        `A code was sent less than ${OTP_RESEND_INTERVAL_SECONDS} seconds ago; retry in ${wait} s`,
        { retryAfterSeconds: wait },
        { 'retry-after': String(wait) },
      );
    }
  }
  const cfg = await walletConfig(credential.platformId, tx);
  const id = newId('Challenge');
  const code = newCode(cfg);
  const target = generateKeyPair();
  await repo.closeOtpChallenges(credential.id, at, tx);
  await repo.insertOtpChallenge(
    {
      id,
      platformId: credential.platformId,
      authMethodId: credential.id,
      codeTag: tag(normalizeCode(code), codePurpose(id)),
      targetPublicKey: bytesToHex(target.publicKey.uncompressed),
      targetSecretKeySealed: seal(target.secretKey, targetPurpose(id)),
      createdAt: at,
      expiresAt: addSeconds(at, cfg.expirationSeconds ?? 300),
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
  return { otpEncryptionTargetBundle, deliver: async () => (message ? sendMessage(message) : undefined) };
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

/** One UPDATE ... RETURNING: no transaction of its own needed. */
async function countFailure(challengeId: string): Promise<void> {
  await repo.countOtpAttempt(challengeId, db());
}

/**
 * First leg of OTP login: opens the sealed attempt with the pending challenge's target key and
 * checks the code. On success the challenge is spent and the client's TEK public key returned,
 * for the caller to bind into the signed retry. Each failure counts; after OTP_MAX_ATTEMPTS the
 * challenge is dead and further attempts get 429 until a new code is requested.
 */
export async function checkOtpAttempt(
  credential: repo.AuthMethodRow,
  encryptedOtpBundle: string,
): Promise<{ challengeId: string; tekPublicKey: string }> {
  const challenge = await repo.latestOtpChallenge(credential.id);
  if (!challenge || challenge.consumedAt)
    throw rejected(
      'No OTP code is pending',
      'No OTP code is pending for this credential; request one with POST /auth/credentials/{id}/challenge',
    );
  if (challenge.expiresAt <= now())
    throw rejected(
      'OTP code expired',
      'The OTP code expired; request a new one with POST /auth/credentials/{id}/challenge',
    );
  if (challenge.attempts >= OTP_MAX_ATTEMPTS) {
    const wait = Math.max(
      1,
      Math.ceil((challenge.createdAt.getTime() + OTP_RESEND_INTERVAL_SECONDS * 1000 - now().getTime()) / 1000),
    );
    throw new DomainError(
      'RATE_LIMITED',
      `Too many wrong codes; request a new code (in ${wait} s)`,
      { retryAfterSeconds: wait },
      { 'retry-after': String(wait) },
    );
  }
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
    await countFailure(challenge.id);
    throw rejected('encryptedOtpBundle does not decrypt with the current otpEncryptionTargetBundle');
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
  if (!tagMatches(normalizeCode(attempt.otp_code), codePurpose(challenge.id), challenge.codeTag)) {
    await countFailure(challenge.id);
    throw rejected('Invalid OTP code');
  }
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
