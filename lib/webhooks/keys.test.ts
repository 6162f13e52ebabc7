import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newPlatform } from '@/tests/support/api';
import { decryptStoredPrivateKey, signBody, signingPublicKeyPem } from './keys';
import { keyring, MasterKeyError, resetKeyring } from '../core/crypto/master-key';
import { findSigningKey } from './repository';
import { db } from '@/lib/core/db';

// The per-platform signing keys the service master key protects at rest (the master keys
// themselves: lib/core/crypto/keyring.test.ts).
describe('platform signing keys', () => {
  it('publishes the public key on GET /config and stores the private key only encrypted', async () => {
    const p = await newPlatform();
    expect(await findSigningKey(p.platformId, db())).toBeNull(); // made on first need
    const res = await p.api.get('/config');
    expect(res.status).toBe(200);
    const pem = res.body.webhookSigningPublicKey as string;
    const publicKey = createPublicKey(pem);
    expect(publicKey.asymmetricKeyType).toBe('ec');
    expect(publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect((await p.api.get('/config')).body.webhookSigningPublicKey).toBe(pem); // stable

    const row = (await findSigningKey(p.platformId, db()))!;
    expect(row.publicKeyPem).toBe(pem);
    expect(row.encryptedPrivateKey).toMatch(new RegExp(`^v2\\.${keyring().current.id}\\.`));
    const privateKey = decryptStoredPrivateKey(p.platformId, row.encryptedPrivateKey);
    expect(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' })).toBe(pem);
    // No recognizable form of the private key in the stored row.
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    const d = privateKey.export({ format: 'jwk' }).d!;
    const stored = JSON.stringify(row);
    for (const clear of [
      'PRIVATE KEY',
      der.toString('base64'),
      der.toString('hex'),
      der.toString('base64url'),
      d,
      Buffer.from(d, 'base64url').toString('hex'),
    ]) {
      expect(stored).not.toContain(clear);
    }
    // Another master key cannot use it; nor can another platform's row context.
    expect(() => decryptStoredPrivateKey('Platform:other', row.encryptedPrivateKey)).toThrow(MasterKeyError);
    const ours = process.env.CORRIDOR_SECRET_KEY;
    process.env.CORRIDOR_SECRET_KEY = randomBytes(32).toString('hex');
    resetKeyring();
    try {
      expect(() => decryptStoredPrivateKey(p.platformId, row.encryptedPrivateKey)).toThrow(MasterKeyError);
    } finally {
      process.env.CORRIDOR_SECRET_KEY = ours;
      resetKeyring();
    }

    // Signatures verify with the published key: DER ECDSA over SHA-256 of the exact bytes.
    const body = '{"id":"Webhook:1","type":"TEST","timestamp":"2025-01-01T00:00:00.000Z","data":{}}';
    const signature = Buffer.from(await signBody(p.platformId, body), 'base64');
    expect(verify('sha256', Buffer.from(body), publicKey, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(body + ' '), publicKey, signature)).toBe(false);
  });

  it('creates one key pair when first uses race', async () => {
    const p = await newPlatform();
    const pems = await Promise.all(Array.from({ length: 5 }, () => signingPublicKeyPem(p.platformId, db())));
    expect(new Set(pems).size).toBe(1);
    expect((await findSigningKey(p.platformId, db()))!.publicKeyPem).toBe(pems[0]);
  });
});
