import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { hashKey, open, seal as sealWith } from './master-key';
import { generateKeyPair, type KeyPair } from './p256';
import { SCHEMES } from './sealed-columns.mjs';

// Secrets at rest. Wallet-auth keeps a few secrets it must read back later (the private half of
// an OTP target key until the code is verified, custodied delegated keys, wallet seeds), cards
// their numbers, and a few it only compares (OTP codes). Readable ones are sealed with
// AES-256-GCM under the master key (lib/core/crypto/master-key.ts: `v2.<key id>.…`, so the key can
// rotate), compared ones are HMAC-SHA256 tags under the hash key, which does not rotate (a tag
// cannot be made again without the secret). A copy of the database alone reveals no code and no
// key. (A six-digit code under a plain hash would fall to a million guesses; under a keyed MAC it
// does not.)
//
// Each use gets its own HKDF subkey, so no two purposes share key material. The hash key's
// subkeys are derived once (the hash key never changes while the process runs; a new one would
// start a new cache). Cached keys are only read here (HMAC keys); what leaves the module is a copy.
const subkeys = new Map<string, Buffer>();
let subkeysOf: Buffer | undefined;
function subkey(label: string, length = 32): Buffer {
  const root = hashKey();
  if (root !== subkeysOf) {
    subkeys.clear();
    subkeysOf = root;
  }
  const id = `${length}:${label}`;
  let key = subkeys.get(id);
  if (!key) subkeys.set(id, (key = Buffer.from(hkdfSync('sha256', root, 'corridor-wallet-auth', label, length))));
  return key;
}

/** Seals a secret for storage; `purpose` binds it to one use (opened only with the same purpose). */
export function seal(plaintext: Uint8Array | string, purpose: string): string {
  return sealWith(typeof plaintext === 'string' ? Buffer.from(plaintext) : plaintext, purpose, SCHEMES.vault);
}

export function unseal(sealed: string, purpose: string): Uint8Array {
  return Uint8Array.from(open(sealed, purpose, SCHEMES.vault));
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
