import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';

// The wallet's cryptography, in the browser only: the session key (a non-extractable WebCrypto
// P-256 key kept in IndexedDB), stamps over the payloads the service asks to sign, HPKE sealing
// of the email code to the service's target key, and opening the exported recovery phrase.
// Suite: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, info "turnkey_hpke" (README).
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
const INFO = new TextEncoder().encode('turnkey_hpke');

export const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
export function unhex(s: string): Uint8Array {
  if (!/^([0-9a-fA-F]{2})*$/.test(s)) throw new Error('not hex');
  return Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
}
const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const buf = (b: Uint8Array) => b.slice().buffer as ArrayBuffer;
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

/** SEC1 compressed form (33 bytes) of an uncompressed P-256 point (65 bytes). */
export function compress(uncompressed: Uint8Array): Uint8Array {
  const y = uncompressed[64];
  return concat(Uint8Array.of(y & 1 ? 3 : 2), uncompressed.subarray(1, 33));
}

export interface SessionKey {
  pair: CryptoKeyPair;
  /** Compressed SEC1 hex, what the service knows the key by. */
  publicKey: string;
}

/** A new session key: its private half can sign but can never be read out, not even by this page. */
export async function newSessionKey(): Promise<SessionKey> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
  ])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { pair, publicKey: hex(compress(raw)) };
}

/** DER SEQUENCE of two INTEGERs from WebCrypto's raw r‖s signature. */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    let v = b.subarray(i);
    if (v[0] & 0x80) v = concat(Uint8Array.of(0), v);
    return concat(Uint8Array.of(0x02, v.length), v);
  };
  const body = concat(int(raw.subarray(0, 32)), int(raw.subarray(32)));
  return concat(Uint8Array.of(0x30, body.length), body);
}

/** The Service-Wallet-Signature header value: a stamp over `payload` by the session key. */
export async function stamp(payload: string, key: SessionKey): Promise<string> {
  const raw = new Uint8Array(
    await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      key.pair.privateKey,
      new TextEncoder().encode(payload),
    ),
  );
  const json = JSON.stringify({
    publicKey: key.publicKey,
    scheme: 'SIGNATURE_SCHEME_TK_API_P256',
    signature: hex(derSignature(raw)),
  });
  return b64url(new TextEncoder().encode(json));
}

/** The encryptedOtpBundle: {"otp_code","public_key"} sealed to the bundle's target key. */
export async function sealOtp(targetBundle: string, code: string, key: SessionKey): Promise<string> {
  const bundle = JSON.parse(targetBundle) as { data: string };
  const { targetPublic } = JSON.parse(new TextDecoder().decode(unhex(bundle.data))) as { targetPublic: string };
  const target = unhex(targetPublic);
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(buf(target)),
    info: buf(INFO),
  });
  const enc = new Uint8Array(sender.enc);
  const plaintext = new TextEncoder().encode(JSON.stringify({ otp_code: code, public_key: key.publicKey }));
  const ct = new Uint8Array(await sender.seal(buf(plaintext), buf(concat(enc, target))));
  return JSON.stringify({ encappedPublic: hex(enc), ciphertext: hex(ct) });
}

/** A one-off key pair to receive the exported wallet on, and its uncompressed public key (hex). */
export async function exportKey(): Promise<{ pair: CryptoKeyPair; publicKey: string }> {
  const pair = await suite.kem.generateKeyPair();
  return { pair, publicKey: hex(new Uint8Array(await suite.kem.serializePublicKey(pair.publicKey))) };
}

/** Opens the export envelope {data: hex(JSON{encappedPublic, ciphertext})} with the one-off key. */
export async function openExport(envelope: string, key: { pair: CryptoKeyPair; publicKey: string }): Promise<string> {
  const { data } = JSON.parse(envelope) as { data: string };
  const inner = JSON.parse(new TextDecoder().decode(unhex(data))) as { encappedPublic: string; ciphertext: string };
  const enc = unhex(inner.encappedPublic);
  const ctx = await suite.createRecipientContext({ recipientKey: key.pair, enc: buf(enc), info: buf(INFO) });
  const plain = await ctx.open(buf(unhex(inner.ciphertext)), buf(concat(enc, unhex(key.publicKey))));
  return new TextDecoder().decode(plain);
}

// ---- the session key at rest: IndexedDB keeps CryptoKey objects as they are (non-extractable) ----
const DB = 'corridor-wallet';
const STORE = 'keys';

function database(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function withStore<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await database();
  try {
    return await new Promise<T>((resolve, reject) => {
      const req = fn(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

export const saveSessionKey = (key: SessionKey) => withStore('readwrite', (s) => s.put(key, 'session'));
export const loadSessionKey = () => withStore<SessionKey | undefined>('readonly', (s) => s.get('session'));
export const forgetSessionKey = () => withStore('readwrite', (s) => s.delete('session'));
