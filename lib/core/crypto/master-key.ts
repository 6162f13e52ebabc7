import { keyring, openEnvelope, sealEnvelope, type SealScheme } from './keyring.mjs';

// The service master keys protect secrets the service must be able to use again (webhook signing
// private keys, wallet-auth secrets, card numbers, ...), so a copy of the database alone does not
// reveal them. They never enter the database; each use derives its own subkey (HKDF), so no two
// purposes share key material. Where the keys come from, how they rotate and why keyed hashes use
// a hash key of their own: lib/core/crypto/keyring.mjs (plain JavaScript, shared with
// scripts/rotate-master-key.mjs).
export { keyId, keyring, loadKeyring, MasterKeyError, resetKeyring, type SealScheme } from './keyring.mjs';

/**
 * The key of every keyed hash and MAC (API secret hashes, one-time codes, signed tokens, list
 * cursors): it never changes when the master key rotates, so nothing hashed has to be made again.
 */
export function hashKey(): Buffer {
  return keyring().hashKey;
}

/**
 * AES-256-GCM under the current master key's subkey for `scheme`, with a fresh 96-bit IV.
 * `context` is bound as associated data, so a ciphertext copied to another row (another platform)
 * does not decrypt there.
 */
export function seal(plain: Uint8Array, context: string, scheme: SealScheme): string {
  return sealEnvelope(plain, context, scheme);
}

/** Opens what `seal` made, under whichever known master key made it (older formats too). */
export function open(sealed: string, context: string, scheme: SealScheme): Buffer {
  return openEnvelope(sealed, context, scheme);
}
