import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { masterKey } from './master-key';
import { generateKeyPair, type KeyPair } from './p256';

// Secrets at rest. Wallet-auth keeps a few secrets it must read back later (the private half of
// an OTP target key until the code is verified, custodied delegated keys, wallet seeds) and a
// few it only compares (OTP codes). Readable ones are sealed with AES-256-GCM, compared ones
// are HMAC-SHA256 tags; both keys derive from one master key that never enters the database,
// so a copy of the database alone reveals no code and no key. (A six-digit code under a plain
// hash would fall to a million guesses; under a keyed MAC it does not.)
//
// The master key is the service's one master key (CORRIDOR_SECRET_KEY, or the generated
// <CORRIDOR_DATA_DIR>/secret.key; see lib/core/crypto/master-key.ts). Wallet-auth never uses it
// directly: each use gets its own HKDF subkey, so no two purposes share key material. The master
// key is fixed for the life of the process (masterKey() caches it), so each subkey is derived once.
// Cached keys are only read here (cipher and HMAC keys); what leaves the module is a copy.
const subkeys = new Map<string, Buffer>();
function subkey(label: string, length = 32): Buffer {
  const id = `${length}:${label}`;
  let key = subkeys.get(id);
  if (!key)
    subkeys.set(id, (key = Buffer.from(hkdfSync('sha256', masterKey(), 'corridor-wallet-auth', label, length))));
  return key;
}

/** Seals a secret for storage; `purpose` binds it to one use (opened only with the same purpose). */
export function seal(plaintext: Uint8Array | string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', subkey('seal'), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([
    cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext) : plaintext),
    cipher.final(),
  ]);
  return `v1.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

export function unseal(sealed: string, purpose: string): Uint8Array {
  if (!sealed.startsWith('v1.')) throw new Error('unknown sealed format');
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', subkey('seal'), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Uint8Array.from(Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]));
}

/** Keyed tag of a low-entropy secret (an OTP code) for constant-time comparison later. */
export function tag(value: string, purpose: string): string {
  return createHmac('sha256', subkey('tag')).update(purpose).update('\0').update(value).digest('hex');
}

export function tagMatches(value: string, purpose: string, expected: string): boolean {
  const a = Buffer.from(tag(value, purpose), 'hex');
  const b = Buffer.from(expected, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** HMAC key for tokens this service issues and later checks itself. */
export function tokenKey(purpose: string): Buffer {
  return Buffer.from(subkey(`token:${purpose}`));
}

let signer: KeyPair | undefined;
/** The service's bundle-signing key (the "enclave quorum" key of signed bundles), derived from the master key. */
export function bundleSigner(): KeyPair {
  return (signer ??= generateKeyPair(Uint8Array.from(subkey('bundle-signer', 48))));
}
