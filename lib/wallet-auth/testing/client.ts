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
