import { webcrypto } from 'node:crypto';
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';

// What a wallet client does, written independently of the server code so the tests exercise
// the wire formats rather than share helpers with the implementation: stamps (with
// @noble/curves and with Node's WebCrypto), HPKE sealing of OTP attempts, JWT-shaped OIDC
// tokens, and a software WebAuthn authenticator (P-256, CBOR, 'none' attestation).
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const unhex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const ab = (b: Uint8Array) => b.slice().buffer as ArrayBuffer;

export interface ClientKey {
  secretKey: Uint8Array;
  /** Compressed SEC1 hex. */
  publicKey: string;
  /** Uncompressed SEC1 hex. */
  publicKeyUncompressed: string;
}

export function newClientKey(): ClientKey {
  const secretKey = p256.utils.randomSecretKey();
  return {
    secretKey,
    publicKey: hex(p256.getPublicKey(secretKey, true)),
    publicKeyUncompressed: hex(p256.getPublicKey(secretKey, false)),
  };
}

export function clientKeyFromSecret(secretKey: Uint8Array): ClientKey {
  return {
    secretKey,
    publicKey: hex(p256.getPublicKey(secretKey, true)),
    publicKeyUncompressed: hex(p256.getPublicKey(secretKey, false)),
  };
}

export function stampOf(publicKey: string, signatureDerHex: string, extra: Record<string, unknown> = {}): string {
  return b64u(
    JSON.stringify({ publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signatureDerHex, ...extra }),
  );
}

/** Stamp with @noble/curves (low-S unless `highS`). */
export function stamp(payload: string, key: ClientKey, opts: { highS?: boolean } = {}): string {
  let sig = p256.sign(new TextEncoder().encode(payload), key.secretKey, { prehash: true, format: 'der' });
  if (opts.highS) {
    const s = p256.Signature.fromBytes(sig, 'der');
    sig = new p256.Signature(s.r, p256.Point.CURVE().n - s.s).toBytes('der');
  }
  return stampOf(key.publicKey, hex(sig));
}

/** DER SEQUENCE of two INTEGERs from WebCrypto's raw r‖s (P1363) signature. */
function rawToDer(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    let v = b.subarray(i);
    if (v[0] & 0x80) v = Uint8Array.from([0, ...v]);
    return Uint8Array.from([0x02, v.length, ...v]);
  };
  const body = Uint8Array.from([...int(raw.subarray(0, 32)), ...int(raw.subarray(32))]);
  return Uint8Array.from([0x30, body.length, ...body]);
}

export async function webCryptoKey(): Promise<{ pair: CryptoKeyPair; publicKey: string }> {
  const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const raw = new Uint8Array(await webcrypto.subtle.exportKey('raw', pair.publicKey));
  return { pair, publicKey: hex(p256.Point.fromBytes(raw).toBytes(true)) };
}

/** Stamp with Node's WebCrypto (ECDSA P-256 SHA-256; WebCrypto does not normalize S). */
export async function webCryptoStamp(
  payload: string,
  key: { pair: CryptoKeyPair; publicKey: string },
): Promise<string> {
  const raw = new Uint8Array(
    await webcrypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      key.pair.privateKey,
      new TextEncoder().encode(payload),
    ),
  );
  return stampOf(key.publicKey, hex(rawToDer(raw)));
}

const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });

/** Reads the target key out of an otpEncryptionTargetBundle and checks the bundle's signature. */
export function targetKeyOf(bundleText: string): { targetPublic: string; signatureValid: boolean } {
  const bundle = JSON.parse(bundleText) as { data: string; dataSignature: string; enclaveQuorumPublic: string };
  const data = unhex(bundle.data);
  const { targetPublic } = JSON.parse(new TextDecoder().decode(data)) as { targetPublic: string };
  const signatureValid = p256.verify(unhex(bundle.dataSignature), data, unhex(bundle.enclaveQuorumPublic), {
    prehash: true,
    format: 'der',
    lowS: false,
  });
  return { targetPublic, signatureValid };
}

/** HPKE-seals arbitrary bytes to a target key with the wallet conventions (info, aad). */
export async function sealTo(
  targetPublicUncompressedHex: string,
  plaintext: Uint8Array,
): Promise<{ encappedPublic: string; ciphertext: string }> {
  const target = unhex(targetPublicUncompressedHex);
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(ab(target)),
    info: ab(new TextEncoder().encode('turnkey_hpke')),
  });
  const enc = new Uint8Array(sender.enc);
  const ct = new Uint8Array(await sender.seal(ab(plaintext), ab(Uint8Array.from([...enc, ...target]))));
  return { encappedPublic: hex(enc), ciphertext: hex(ct) };
}

/** The client's encryptedOtpBundle: HPKE-sealed {"otp_code","public_key"} as a JSON string. */
export async function encryptOtpBundle(targetBundle: string, otpCode: string, tek: ClientKey): Promise<string> {
  const { targetPublic } = targetKeyOf(targetBundle);
  const sealed = await sealTo(
    targetPublic,
    new TextEncoder().encode(JSON.stringify({ otp_code: otpCode, public_key: tek.publicKey })),
  );
  return JSON.stringify(sealed);
}

/** Opens a legacy encryptedSessionSigningKey (base58check(compressed enc ‖ ciphertext)). */
export async function openSessionKeyBundle(bundle: string, recipient: ClientKey): Promise<Uint8Array> {
  const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const c of bundle) n = n * 58n + BigInt(ALPHABET.indexOf(c));
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  const raw = Uint8Array.from(bytes);
  const payload = raw.subarray(0, raw.length - 4);
  const check = sha256(sha256(payload)).subarray(0, 4);
  if (hex(check) !== hex(raw.subarray(raw.length - 4))) throw new Error('bad checksum');
  const enc = p256.Point.fromBytes(payload.subarray(0, 33)).toBytes(false);
  const recipientPublic = unhex(recipient.publicKeyUncompressed);
  const ctx = await suite.createRecipientContext({
    recipientKey: await suite.kem.importKey('raw', ab(recipient.secretKey), false),
    enc: ab(enc),
    info: ab(new TextEncoder().encode('turnkey_hpke')),
  });
  return new Uint8Array(await ctx.open(ab(payload.subarray(33)), ab(Uint8Array.from([...enc, ...recipientPublic]))));
}

/** Opens the export envelope {version, data: hex(JSON{encappedPublic, ciphertext}), ...}. */
export async function openEnvelope(envelope: string, recipient: ClientKey): Promise<Uint8Array> {
  const { data } = JSON.parse(envelope) as { data: string };
  const inner = JSON.parse(Buffer.from(data, 'hex').toString('utf8')) as { encappedPublic: string; ciphertext: string };
  const enc = unhex(inner.encappedPublic);
  const ctx = await suite.createRecipientContext({
    recipientKey: await suite.kem.importKey('raw', ab(recipient.secretKey), false),
    enc: ab(enc),
    info: ab(new TextEncoder().encode('turnkey_hpke')),
  });
  return new Uint8Array(
    await ctx.open(
      ab(unhex(inner.ciphertext)),
      ab(Uint8Array.from([...enc, ...unhex(recipient.publicKeyUncompressed)])),
    ),
  );
}

export const sha256Hex = (s: string) => hex(sha256(new TextEncoder().encode(s)));

/** A JWT-shaped OIDC token. Signed with `signer` (RS256/ES256 via WebCrypto) or a dummy signature. */
export async function oidcToken(
  claims: Record<string, unknown>,
  signer?: { kid: string; alg: 'ES256'; key: CryptoKey },
): Promise<string> {
  const header = { alg: signer?.alg ?? 'RS256', kid: signer?.kid ?? 'sandbox', typ: 'JWT' };
  const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(claims))}`;
  if (!signer) return `${input}.${b64u('dummy-signature')}`;
  const sig = new Uint8Array(
    await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signer.key, new TextEncoder().encode(input)),
  );
  return `${input}.${b64u(sig)}`;
}

export function googleClaims(nowSeconds: number, extra: Record<string, unknown> = {}) {
  return {
    iss: 'https://accounts.google.com',
    aud: 'client-123.apps.googleusercontent.com',
    sub: '1122334455',
    email: 'user@example.com',
    iat: nowSeconds,
    exp: nowSeconds + 3600,
    ...extra,
  };
}

// ---- a software WebAuthn authenticator -------------------------------------------------------

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
