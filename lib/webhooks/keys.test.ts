import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newPlatform } from '@/tests/support/api';
import { decryptStoredPrivateKey, signBody, signingPublicKeyPem } from './keys';
import { loadMasterKey, MasterKeyError, masterKey, open, seal } from '../core/crypto/master-key';
import { findSigningKey } from './repository';

// The service master key and the per-platform signing keys it protects at rest.
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'corridor-key-'));
  dirs.push(d);
  return d;
};

describe('master key', () => {
  it('reads CORRIDOR_SECRET_KEY as 64 hex characters or base64', () => {
    const raw = randomBytes(32);
    expect(loadMasterKey({ CORRIDOR_SECRET_KEY: raw.toString('hex') }).equals(raw)).toBe(true);
    expect(loadMasterKey({ CORRIDOR_SECRET_KEY: raw.toString('base64') }).equals(raw)).toBe(true);
    expect(loadMasterKey({ CORRIDOR_SECRET_KEY: raw.toString('base64url') }).equals(raw)).toBe(true);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => loadMasterKey({ CORRIDOR_SECRET_KEY: 'ab'.repeat(16) })).toThrow(MasterKeyError);
    expect(() => loadMasterKey({ CORRIDOR_SECRET_KEY: randomBytes(31).toString('base64') })).toThrow(/32 bytes/);
    expect(() => loadMasterKey({ CORRIDOR_SECRET_KEY: 'not a key!' })).toThrow(MasterKeyError);
  });

  it('when unset, generates ${CORRIDOR_DATA_DIR}/secret.key with mode 0600 once and reuses it', () => {
    const dir = path.join(tempDir(), 'nested');
    const first = loadMasterKey({ CORRIDOR_DATA_DIR: dir });
    const file = path.join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('hex'));
    expect(loadMasterKey({ CORRIDOR_DATA_DIR: dir }).equals(first)).toBe(true);
    // The environment wins over the file.
    const other = randomBytes(32);
    expect(loadMasterKey({ CORRIDOR_DATA_DIR: dir, CORRIDOR_SECRET_KEY: other.toString('hex') }).equals(other)).toBe(
      true,
    );
  });

  it('refuses a damaged key file instead of replacing it', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'secret.key'), 'garbage\n', { mode: 0o600 });
    expect(() => loadMasterKey({ CORRIDOR_DATA_DIR: dir })).toThrow(MasterKeyError);
    expect(readFileSync(path.join(dir, 'secret.key'), 'utf8')).toBe('garbage\n');
  });

  it('seals with AES-256-GCM bound to its context; wrong key, context or a changed byte fail', () => {
    const key = randomBytes(32);
    const sealed = seal(Buffer.from('secret material'), 'ctx-a', key);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(Buffer.from('secret material').toString('base64url'));
    expect(open(sealed, 'ctx-a', key).toString()).toBe('secret material');
    expect(seal(Buffer.from('secret material'), 'ctx-a', key)).not.toBe(sealed); // fresh IV
    expect(() => open(sealed, 'ctx-a', randomBytes(32))).toThrow(MasterKeyError);
    expect(() => open(sealed, 'ctx-b', key)).toThrow(MasterKeyError);
    const parts = sealed.split('.');
    const ct = Buffer.from(parts[3], 'base64url');
    ct[0] ^= 1;
    expect(() => open([...parts.slice(0, 3), ct.toString('base64url')].join('.'), 'ctx-a', key)).toThrow(
      MasterKeyError,
    );
  });
});

describe('platform signing keys', () => {
  it('publishes the public key on GET /config and stores the private key only encrypted', async () => {
    const p = await newPlatform();
    expect(await findSigningKey(p.platformId)).toBeNull(); // made on first need
    const res = await p.api.get('/config');
    expect(res.status).toBe(200);
    const pem = res.body.webhookSigningPublicKey as string;
    const publicKey = createPublicKey(pem);
    expect(publicKey.asymmetricKeyType).toBe('ec');
    expect(publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect((await p.api.get('/config')).body.webhookSigningPublicKey).toBe(pem); // stable

    const row = (await findSigningKey(p.platformId))!;
    expect(row.publicKeyPem).toBe(pem);
    const privateKey = decryptStoredPrivateKey(p.platformId, row.encryptedPrivateKey, masterKey());
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
    expect(() => decryptStoredPrivateKey(p.platformId, row.encryptedPrivateKey, randomBytes(32))).toThrow(
      MasterKeyError,
    );
    expect(() => decryptStoredPrivateKey('Platform:other', row.encryptedPrivateKey, masterKey())).toThrow(
      MasterKeyError,
    );

    // Signatures verify with the published key: DER ECDSA over SHA-256 of the exact bytes.
    const body = '{"id":"Webhook:1","type":"TEST","timestamp":"2025-01-01T00:00:00.000Z","data":{}}';
    const signature = Buffer.from(await signBody(p.platformId, body), 'base64');
    expect(verify('sha256', Buffer.from(body), publicKey, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(body + ' '), publicKey, signature)).toBe(false);
  });

  it('creates one key pair when first uses race', async () => {
    const p = await newPlatform();
    const pems = await Promise.all(Array.from({ length: 5 }, () => signingPublicKeyPem(p.platformId)));
    expect(new Set(pems).size).toBe(1);
    expect((await findSigningKey(p.platformId))!.publicKeyPem).toBe(pems[0]);
  });
});
