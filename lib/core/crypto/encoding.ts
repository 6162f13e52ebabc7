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

// Bech32 (BIP 173) and bech32m (BIP 350): 5-bit words with a 6-character BCH checksum over the
// human-readable part.
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function bech32Polymod(values: number[]): number {
  const G = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= G[i];
  }
  return chk >>> 0;
}

/** Decodes bech32 or bech32m (checksum either way) into its human part and 8-bit payload. */
export function bech32Decode(s: string): { hrp: string; data: Uint8Array } | null {
  const lower = s.toLowerCase();
  if (s !== lower && s !== s.toUpperCase()) return null;
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length || lower.length > 1023) return null;
  const hrp = lower.slice(0, sep);
  const words = [...lower.slice(sep + 1)].map((c) => BECH32.indexOf(c));
  if (words.some((w) => w < 0)) return null;
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const check = bech32Polymod([...expanded, ...words]);
  if (check !== 1 && check !== 0x2bc830a3) return null;
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (const w of words.slice(0, -6)) {
    acc = (acc << 5) | w;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return { hrp, data: Uint8Array.from(out) };
}

/** 8-bit bytes as 5-bit words (the last one zero-padded), as bech32 data carries them. */
export function toWords(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out.push((acc >> bits) & 31);
    }
  }
  if (bits > 0) out.push((acc << (5 - bits)) & 31);
  return out;
}

/** Bech32 (not bech32m) string of 5-bit `words` under `hrp`. */
export function bech32Encode(hrp: string, words: number[]): string {
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = bech32Polymod([...expanded, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => BECH32[w]).join('')}`;
}
