import { webcrypto } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';

// A software WebAuthn authenticator (P-256, CBOR, 'none' attestation), written independently of
// the server code so passkey tests exercise the wire format.
const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');

function cborHead(major: number, n: number): number[] {
  if (n < 24) return [(major << 5) | n];
  if (n < 0x100) return [(major << 5) | 24, n];
  if (n < 0x10000) return [(major << 5) | 25, n >> 8, n & 0xff];
  return [(major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
/** Minimal CBOR (RFC 8949) encoder: integers, text and byte strings, maps in insertion order. */
export function cbor(value: Cbor): Uint8Array {
  if (typeof value === 'number') return Uint8Array.from(value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value));
  if (typeof value === 'string') {
    const b = new TextEncoder().encode(value);
    return Uint8Array.from([...cborHead(3, b.length), ...b]);
  }
  if (value instanceof Uint8Array) return Uint8Array.from([...cborHead(2, value.length), ...value]);
  const parts: number[] = cborHead(5, value.size);
  for (const [k, v] of value) parts.push(...cbor(k), ...cbor(v));
  return Uint8Array.from(parts);
}

function u32(n: number) {
  return [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

export interface Passkey {
  credentialId: Uint8Array;
  secretKey: Uint8Array;
  counter: number;
  rpId: string;
  origin: string;
}

export function newPasskey(opts: { rpId?: string; origin?: string } = {}): Passkey {
  return {
    credentialId: Uint8Array.from(webcrypto.getRandomValues(new Uint8Array(32))),
    secretKey: p256.utils.randomSecretKey(),
    counter: 0,
    rpId: opts.rpId ?? 'localhost',
    origin: opts.origin ?? 'http://localhost:3000',
  };
}

function authenticatorData(pk: Passkey, flags: number, attested?: Uint8Array): Uint8Array {
  const rpIdHash = sha256(new TextEncoder().encode(pk.rpId));
  return Uint8Array.from([...rpIdHash, flags, ...u32(pk.counter), ...(attested ?? [])]);
}

function coseKey(pk: Passkey): Uint8Array {
  const point = p256.getPublicKey(pk.secretKey, false);
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, point.subarray(1, 33)],
      [-3, point.subarray(33, 65)],
    ]),
  );
}

/** navigator.credentials.create() with 'none' attestation; `challenge` is the base64url string issued by the integrator. */
export function attest(pk: Passkey, challenge: string, opts: { origin?: string; flags?: number } = {}) {
  const clientDataJSON = JSON.stringify({
    type: 'webauthn.create',
    challenge,
    origin: opts.origin ?? pk.origin,
    crossOrigin: false,
  });
  const attested = Uint8Array.from([
    ...new Uint8Array(16),
    pk.credentialId.length >> 8,
    pk.credentialId.length & 0xff,
    ...pk.credentialId,
    ...coseKey(pk),
  ]);
  const authData = authenticatorData(pk, opts.flags ?? 0x41 /* UP | AT */, attested);
  const attestationObject = cbor(
    new Map<Cbor, Cbor>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  );
  return {
    credentialId: b64u(pk.credentialId),
    clientDataJson: b64u(clientDataJSON),
    attestationObject: b64u(attestationObject),
    transports: ['internal', 'hybrid'],
  };
}

/**
 * navigator.credentials.get() over the hex challenge, UTF-8 encoded as the WebAuthn challenge
 * bytes; with `rawChallenge` the challenge is a standard base64url WebAuthn challenge used as is.
 */
export function assert(
  pk: Passkey,
  challengeHex: string,
  opts: { origin?: string; flags?: number; counterStep?: number; rpId?: string; rawChallenge?: boolean } = {},
) {
  pk.counter += opts.counterStep ?? 1;
  const clientDataJSON = JSON.stringify({
    type: 'webauthn.get',
    challenge: opts.rawChallenge ? challengeHex : b64u(new TextEncoder().encode(challengeHex)),
    origin: opts.origin ?? pk.origin,
    crossOrigin: false,
  });
  const authData = authenticatorData(opts.rpId ? { ...pk, rpId: opts.rpId } : pk, opts.flags ?? 0x01 /* UP */);
  const signed = Uint8Array.from([...authData, ...sha256(new TextEncoder().encode(clientDataJSON))]);
  const signature = p256.sign(signed, pk.secretKey, { prehash: true, format: 'der' });
  return {
    credentialId: b64u(pk.credentialId),
    clientDataJson: b64u(clientDataJSON),
    authenticatorData: b64u(authData),
    signature: b64u(signature),
  };
}
