import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { isSandbox } from '../core/mode';
import { seal, tag, unseal } from '../core/crypto/vault';
import { SANDBOX_CODE } from './codes';

// TOTP factors (RFC 6238 through the otpauth library): SHA-1, 6 digits, 30-second steps, one step
// of clock drift tolerated either way. The shared secret is sealed with the service vault; each
// accepted time step is recorded so a code is never accepted twice. Recovery codes are shown once
// and stored as keyed hashes. In sandbox the reference's 123456 is also accepted.
const PERIOD = 30;
const WINDOW = 1;
export const SEAL_PURPOSE = 'sca-totp-secret';
const ISSUER = 'Corridor';
const RECOVERY_COUNT = 10;
// No 0/O, 1/I: a recovery code is read off paper and typed in.
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface NewSecret {
  /** The raw shared secret as hex (what the start call returns as `secret` and confirm threads back). */
  hex: string;
  base32: string;
  uri: string;
}

function totpOf(secret: Secret, label = 'customer') {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret });
}

export function newSecret(label: string): NewSecret {
  const secret = new Secret({ size: 20 });
  return { hex: secret.hex.toLowerCase(), base32: secret.base32, uri: totpOf(secret, label).toString() };
}

/** The secret a client threads back: the hex `secret` or its base32 form; null when it is neither. */
export function parseSecret(value: string): Secret | null {
  const v = value.trim();
  try {
    if (/^[0-9a-fA-F]{40}$/.test(v)) return Secret.fromHex(v);
    if (/^[A-Za-z2-7]{32}=*$/.test(v)) return Secret.fromBase32(v.toUpperCase());
  } catch {
    return null;
  }
  return null;
}

export const sealSecret = (s: Secret) => seal(s.bytes, SEAL_PURPOSE);
export const openSecret = (sealed: string) => new Secret({ buffer: unseal(sealed, SEAL_PURPOSE).slice().buffer });

export type TotpCheck = { ok: true; step: bigint | null } | { ok: false };

/**
 * Checks a code against the secret at `at`: the time step it belongs to (to be consumed once), or
 * null for the sandbox code, which belongs to no step.
 */
export function checkCode(secret: Secret, code: string, at: Date): TotpCheck {
  if (!/^\d{6}$/.test(code)) return { ok: false };
  const delta = totpOf(secret).validate({ token: code, timestamp: at.getTime(), window: WINDOW });
  if (delta !== null) return { ok: true, step: BigInt(Math.floor(at.getTime() / 1000 / PERIOD) + delta) };
  if (isSandbox() && code === SANDBOX_CODE) return { ok: true, step: null };
  return { ok: false };
}

// ---- recovery codes ---------------------------------------------------------------------------

export function newRecoveryCodes(): string[] {
  const group = () => Array.from({ length: 4 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_COUNT }, () => `${group()}-${group()}-${group()}`);
}

/** A recovery code as typed: case and separators do not matter. */
export function normalizeRecoveryCode(code: string): string | null {
  const v = code.toUpperCase().replace(/[\s-]/g, '');
  return /^[A-Z0-9]{12}$/.test(v) ? v : null;
}

export function recoveryHash(factorId: string, code: string): string {
  return tag(normalizeRecoveryCode(code) ?? code, `sca-recovery:${factorId}`);
}
