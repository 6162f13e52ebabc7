import { p256 } from '@noble/curves/nist.js';
import { bytesToHex, hexToBytes, isHex } from './encoding';

// P-256 keys and ECDSA as the wallet-auth formats use them: public keys travel as SEC1 hex
// (compressed 02/03‖X or uncompressed 04‖X‖Y), signatures as DER hex over SHA-256 of the
// message. Every operation is @noble/curves; nothing here implements curve arithmetic.
export type PublicKeyEncoding = 'compressed' | 'uncompressed';

export interface ParsedPublicKey {
  encoding: PublicKeyEncoding;
  compressed: Uint8Array;
  uncompressed: Uint8Array;
  compressedHex: string;
}

export const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;
export const UNCOMPRESSED_KEY = /^04[0-9a-fA-F]{128}$/;

/** Parses a SEC1 hex public key, checking the point is on the curve; null when it is not a key. */
export function parsePublicKey(hex: string): ParsedPublicKey | null {
  if (typeof hex !== 'string' || !(COMPRESSED_KEY.test(hex) || UNCOMPRESSED_KEY.test(hex))) return null;
  try {
    const point = p256.Point.fromBytes(hexToBytes(hex));
    point.assertValidity();
    const compressed = point.toBytes(true);
    return {
      encoding: hex.length === 66 ? 'compressed' : 'uncompressed',
      compressed,
      uncompressed: point.toBytes(false),
      compressedHex: bytesToHex(compressed),
    };
  } catch {
    return null;
  }
}

export interface KeyPair {
  secretKey: Uint8Array;
  publicKey: ParsedPublicKey;
}

/** A fresh key pair from the CSPRNG, or a deterministic one from a 48-byte seed. */
export function generateKeyPair(seed?: Uint8Array): KeyPair {
  const { secretKey, publicKey } = seed ? p256.keygen(seed) : p256.keygen();
  return { secretKey, publicKey: parsePublicKey(bytesToHex(publicKey))! };
}

export function publicKeyOf(secretKey: Uint8Array): ParsedPublicKey {
  return parsePublicKey(bytesToHex(p256.getPublicKey(secretKey, true)))!;
}

/** DER ECDSA signature over SHA-256(message). */
export function signDer(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return p256.sign(message, secretKey, { prehash: true, format: 'der' });
}

/**
 * Verifies a DER ECDSA signature over SHA-256(message). High-S signatures are valid ECDSA
 * (WebCrypto and many HSMs produce them half the time), so they are accepted.
 */
export function verifyDer(signatureDer: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return p256.verify(signatureDer, message, publicKey, { prehash: true, format: 'der', lowS: false });
  } catch {
    return false;
  }
}

/** Whether the bytes are a well-formed DER ECDSA signature (not whether it verifies). */
export function isDerSignature(signature: Uint8Array): boolean {
  try {
    p256.Signature.fromBytes(signature, 'der');
    return true;
  } catch {
    return false;
  }
}

export { isHex };
