import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { tag } from './vault';

// API secrets. Generated ones are 256 bits from the CSPRNG; an operator may choose the bootstrap
// secret (CORRIDOR_CLIENT_SECRET, at least MIN_CHOSEN_SECRET_LENGTH characters). They are stored
// as a keyed hash: HMAC-SHA256 under a subkey of the service hash key (lib/core/crypto/vault.ts tag;
// the hash key stays when the master key rotates: lib/core/crypto/keyring.mjs),
// so a copy of the tokens table alone does not let anyone test guesses of a chosen secret offline.
// Compared in constant time.
//
// Versions of the stored hash (ApiToken.secretHashVersion):
// 1 - bare SHA-256 (rows written before keyed hashing). Verified the old way once, then rehashed.
// 2 - HMAC-SHA256 under the hash key (before rotation existed: the master key, which stays the
//     hash key of such an installation): what every write stores now.
export const SECRET_HASH_VERSION = 2;
export const MIN_CHOSEN_SECRET_LENGTH = 32;

export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string | Uint8Array): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The stored form of an API secret (version SECRET_HASH_VERSION). */
export function hashSecret(secret: string): string {
  return tag(secret, 'api-secret');
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export function secretMatches(secret: string, storedHash: string, version: number): boolean {
  if (version === 2) return sameHex(hashSecret(secret), storedHash);
  if (version === 1) return sameHex(sha256Hex(secret), storedHash);
  return false;
}
