import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { base58checkDecode, base58checkEncode, bytesToHex, concatBytes } from './encoding';
import { parsePublicKey, publicKeyOf, signDer, type ParsedPublicKey } from './p256';

// HPKE (RFC 9180) base mode with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-256-GCM, via
// @hpke/core over Node's WebCrypto (globalThis.crypto on Node 20). The wallet formats fix
// info = "turnkey_hpke" and aad = encapsulated key ‖ recipient key, both uncompressed SEC1, so
// that ciphertexts interoperate with the clients' existing libraries.
export const WALLET_HPKE_INFO = new TextEncoder().encode('turnkey_hpke');
export const BUNDLE_VERSION = 'v1.0.0';

let suite: CipherSuite | undefined;
export function hpkeSuite(): CipherSuite {
  return (suite ??= new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() }));
}

const buf = (b: Uint8Array) => b.slice().buffer as ArrayBuffer;

/** One-shot base-mode seal; `ekm` fixes the ephemeral key (known-answer tests only). */
export async function sealBase(opts: {
  recipientPublicKey: Uint8Array;
  plaintext: Uint8Array;
  info: Uint8Array;
  aad: Uint8Array;
  ekm?: CryptoKeyPair;
}) {
  const s = hpkeSuite();
  const recipientPublicKey = await s.kem.deserializePublicKey(buf(opts.recipientPublicKey));
  const sender = await s.createSenderContext({
    recipientPublicKey,
    info: buf(opts.info),
    ...(opts.ekm ? { ekm: opts.ekm } : {}),
  });
  const ciphertext = new Uint8Array(await sender.seal(buf(opts.plaintext), buf(opts.aad)));
  return { enc: new Uint8Array(sender.enc), ciphertext };
}

/** One-shot base-mode open with a raw 32-byte recipient secret key. Throws when it does not authenticate. */
export async function openBase(opts: {
  recipientSecretKey: Uint8Array;
  enc: Uint8Array;
  ciphertext: Uint8Array;
  info: Uint8Array;
  aad: Uint8Array;
}): Promise<Uint8Array> {
  const s = hpkeSuite();
  const recipientKey = await s.kem.importKey('raw', buf(opts.recipientSecretKey), false);
  const recipient = await s.createRecipientContext({ recipientKey, enc: buf(opts.enc), info: buf(opts.info) });
  return new Uint8Array(await recipient.open(buf(opts.ciphertext), buf(opts.aad)));
}

/**
 * Seals to a P-256 public key with the wallet conventions; the encapsulated key comes back
 * uncompressed. The aad includes the encapsulated key, known only once the context exists.
 */
export async function sealToKey(recipient: ParsedPublicKey, plaintext: Uint8Array) {
  const s = hpkeSuite();
  const recipientPublicKey = await s.kem.deserializePublicKey(buf(recipient.uncompressed));
  const sender = await s.createSenderContext({ recipientPublicKey, info: buf(WALLET_HPKE_INFO) });
  const enc = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(await sender.seal(buf(plaintext), buf(concatBytes(enc, recipient.uncompressed))));
  return { enc, ciphertext };
}

/** Opens a wallet-convention ciphertext; `enc` may be compressed or uncompressed. */
export async function openWithKey(
  recipientSecretKey: Uint8Array,
  encHexOrBytes: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const enc = parsePublicKey(bytesToHex(encHexOrBytes));
  if (!enc) throw new Error('encapsulated key is not a P-256 point');
  const recipient = publicKeyOf(recipientSecretKey);
  return openBase({
    recipientSecretKey,
    enc: enc.uncompressed,
    ciphertext,
    info: WALLET_HPKE_INFO,
    aad: concatBytes(enc.uncompressed, recipient.uncompressed),
  });
}

/** Legacy credential bundle: base58check(compressed encapsulated key ‖ ciphertext). */
export async function encryptCredentialBundle(plaintext: Uint8Array, recipient: ParsedPublicKey): Promise<string> {
  const { enc, ciphertext } = await sealToKey(recipient, plaintext);
  return base58checkEncode(concatBytes(parsePublicKey(bytesToHex(enc))!.compressed, ciphertext));
}

export async function decryptCredentialBundle(bundle: string, recipientSecretKey: Uint8Array): Promise<Uint8Array> {
  const raw = base58checkDecode(bundle);
  if (raw.length <= 33) throw new Error('credential bundle too short');
  return openWithKey(recipientSecretKey, raw.subarray(0, 33), raw.subarray(33));
}

export interface SignedBundle {
  version: string;
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
}

/** `{version, data: hex(JSON), dataSignature, enclaveQuorumPublic}`; unsigned when no signer is given. */
export function signedBundle(
  data: Record<string, unknown>,
  signer: { secretKey: Uint8Array; publicKey: ParsedPublicKey } | null,
): string {
  const dataBytes = new TextEncoder().encode(JSON.stringify(data));
  const bundle: SignedBundle = {
    version: BUNDLE_VERSION,
    data: bytesToHex(dataBytes),
    dataSignature: signer ? bytesToHex(signDer(dataBytes, signer.secretKey)) : '',
    enclaveQuorumPublic: signer ? bytesToHex(signer.publicKey.uncompressed) : '',
  };
  return JSON.stringify(bundle);
}

/** Seals to an uncompressed key and wraps the result as the export envelope's `data`. */
export async function sealedEnvelope(
  plaintext: Uint8Array,
  recipient: ParsedPublicKey,
  organizationId: string,
  signer: Parameters<typeof signedBundle>[1],
) {
  const { enc, ciphertext } = await sealToKey(recipient, plaintext);
  return signedBundle({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext), organizationId }, signer);
}
