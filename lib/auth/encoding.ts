import { sha256 } from '@noble/hashes/sha2.js';

// Byte encodings used by the wallet-auth wire formats: hex (keys, signatures, bundles),
// base64url without padding (stamps, WebAuthn fields) and base58check (legacy session key
// bundles, the format clients' existing decoders expect).
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

export function isHex(value: string): boolean {
  return HEX.test(value);
}

export function hexToBytes(value: string): Uint8Array {
  if (!isHex(value)) throw new Error('not an even-length hex string');
  return Uint8Array.from(Buffer.from(value, 'hex'));
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** Decodes base64url, tolerating trailing padding; throws on any other character. */
export function base64urlToBytes(value: string): Uint8Array {
  if (!BASE64URL.test(value)) throw new Error('not base64url');
  return Uint8Array.from(Buffer.from(value.replace(/=+$/, ''), 'base64url'));
}

export function bytesToBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));

/** Plain base58 (Bitcoin alphabet), leading zero bytes as '1's. */
export function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

/** Plain base58 (Bitcoin alphabet); throws on a character outside it. */
export function base58Decode(text: string): Uint8Array {
  let n = 0n;
  for (const c of text) {
    const v = INDEX.get(c);
    if (v === undefined) throw new Error('not base58');
    n = n * 58n + v;
  }
  const body: number[] = [];
  while (n > 0n) {
    body.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  return Uint8Array.from([...new Array(zeros).fill(0), ...body]);
}

const checksum = (payload: Uint8Array) => sha256(sha256(payload)).subarray(0, 4);

/** base58(payload ‖ first 4 bytes of SHA-256(SHA-256(payload))). */
export function base58checkEncode(payload: Uint8Array): string {
  return base58Encode(concatBytes(payload, checksum(payload)));
}

export function base58checkDecode(text: string): Uint8Array {
  const raw = base58Decode(text);
  if (raw.length < 4) throw new Error('base58check string too short');
  const payload = raw.subarray(0, raw.length - 4);
  const sum = checksum(payload);
  if (!raw.subarray(raw.length - 4).every((b, i) => b === sum[i])) throw new Error('base58check checksum mismatch');
  return Uint8Array.from(payload);
}
