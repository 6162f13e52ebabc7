import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../auth/secrets';

// One-time codes: made, hashed and checked here. A six-digit code has only a million values, so
// a fast hash would give it away to anyone holding the table; a salted scrypt makes each guess
// costly, and the code is dead within minutes anyway. Never log a code or put one in an error.
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(code: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(code, salt, KEY_LENGTH, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** A uniformly random six-digit code. */
export function randomCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

export async function hashCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(code, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function codeMatches(code: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(code, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** What a code is bound to: the exact email or phone number it was sent to. */
export function targetHash(contact: string): string {
  return sha256Hex(`contact:${contact}`);
}
