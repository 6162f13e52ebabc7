import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { open, seal } from '../core/crypto/master-key';
import { SCHEMES } from '../core/crypto/sealed-columns.mjs';
import * as repo from './repository';

// Each platform signs with its own P-256 key pair, made on first need (GET /config or the first
// delivery). Signature scheme (reference, components.securitySchemes.WebhookSignature): ECDSA
// P-256 over SHA-256 of the exact body bytes, base64 in X-Grid-Signature. The signature is the
// ASN.1 DER encoding, which is what standard verifiers (Node crypto.verify, OpenSSL, Python
// cryptography, Java Signature "SHA256withECDSA") accept by default.
export const SIGNATURE_HEADER = 'X-Grid-Signature';

// Sealed under a subkey of the master key for this one purpose (SCHEMES.webhookKeys), bound to the platform.
export const sealContext = (platformId: string) => `webhook-signing-key:${platformId}`;

/** The platform's verification key (SPKI PEM), creating the key pair if it has none yet. */
export async function signingPublicKeyPem(platformId: string, tx: Tx): Promise<string> {
  const existing = await repo.findSigningKey(platformId, tx);
  if (existing) return existing.publicKeyPem;
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  await repo.insertSigningKeyIfAbsent(
    {
      platformId,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      encryptedPrivateKey: seal(
        privateKey.export({ type: 'pkcs8', format: 'der' }),
        sealContext(platformId),
        SCHEMES.webhookKeys,
      ),
      createdAt: now(),
    },
    tx,
  );
  // Read back: a concurrent first use may have stored its key first, and that one is the key.
  return (await repo.findSigningKey(platformId, tx))!.publicKeyPem;
}

// Decrypted keys stay in memory for the process's life; the signing keys do not rotate (a rotation
// of the master key re-seals them, the key pair stays), and decrypting per delivery would only cost time. Bounded so a huge multi-tenant process does not grow forever.
const cache = new Map<string, KeyObject>();

export async function signingPrivateKey(platformId: string): Promise<KeyObject> {
  const hit = cache.get(platformId);
  if (hit) return hit;
  await signingPublicKeyPem(platformId, db());
  const row = (await repo.findSigningKey(platformId, db()))!;
  const key = decryptStoredPrivateKey(platformId, row.encryptedPrivateKey);
  if (cache.size >= 1000) cache.clear();
  cache.set(platformId, key);
  return key;
}

/** Base64 DER ECDSA P-256/SHA-256 signature of the exact body bytes. */
export async function signBody(platformId: string, body: string | Buffer): Promise<string> {
  return sign('sha256', typeof body === 'string' ? Buffer.from(body, 'utf8') : body, {
    key: await signingPrivateKey(platformId),
    dsaEncoding: 'der',
  }).toString('base64');
}

/** Decrypts a stored private key (under whichever known master key sealed it). */
export function decryptStoredPrivateKey(platformId: string, encryptedPrivateKey: string): KeyObject {
  return createPrivateKey({
    key: open(encryptedPrivateKey, sealContext(platformId), SCHEMES.webhookKeys),
    format: 'der',
    type: 'pkcs8',
  });
}
