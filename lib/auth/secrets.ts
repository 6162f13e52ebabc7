import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// API secrets are 256 bits from the CSPRNG, so a plain SHA-256 is a sufficient one-way hash:
// there is no human-chosen password to brute-force. Compared in constant time.
export function generateSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string | Uint8Array): string {
  return createHash('sha256').update(value).digest('hex');
}

export function secretMatches(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(sha256Hex(secret), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
