import { spawn } from 'node:child_process';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { keyId } from '@/lib/core/crypto/keyring.mjs';
import { SCHEMES } from '@/lib/core/crypto/sealed-columns.mjs';
import { startEmbedded } from '../scripts/embedded-db.mjs';
import { migrate } from '../scripts/migrate.mjs';

// `npm run rotate-master-key` on the embedded database: it serves one process, so the script
// refuses while a server holds the data directory, and rotates once it is free.
const test = it.skipIf(!inject('embedded'));
const root = path.join(__dirname, '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const scheme = SCHEMES.webhookKeys;
const subkey = (master: Buffer) => Buffer.from(hkdfSync('sha256', master, scheme.salt, scheme.info, 32));

function runScript(dir: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'rotate-master-key.mjs')], {
    env: { ...process.env, DATABASE_URL: undefined, CORRIDOR_DATA_DIR: dir, CORRIDOR_SECRET_KEY: undefined },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

async function withDatabase<T>(dir: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const db = await startEmbedded({ dataDir: dir, maxConnections: 2 });
  const c = new pg.Client({ connectionString: db.url });
  try {
    await migrate(db.url);
    await c.connect();
    return await fn(c);
  } finally {
    await c.end().catch(() => {});
    await db.stop();
  }
}

test('refuses while a server holds the database, then re-seals with it stopped', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'corridor-rotate-embedded-'));
  dirs.push(dir);
  const old = randomBytes(32);
  writeFileSync(path.join(dir, 'secret.key'), `${old.toString('hex')}\n`, { mode: 0o600 });
  const context = 'webhook-signing-key:Platform:rotate';
  // A webhook signing key sealed in the v1 layout under the old key, as an existing database has it.
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', subkey(old), iv);
  cipher.setAAD(Buffer.from(context));
  const ct = Buffer.concat([cipher.update('private key bytes'), cipher.final()]);
  const v1 = ['v1', iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
  const refused = await withDatabase(dir, async (c) => {
    await c.query(
      `INSERT INTO "Platform" ("id", "name", "umaDomain", "createdAt", "updatedAt") VALUES ($1, 'Rotate', 'rotate.test', now(), now())`,
      ['Platform:rotate'],
    );
    await c.query(
      `INSERT INTO "WebhookSigningKey" ("platformId", "publicKeyPem", "encryptedPrivateKey", "createdAt") VALUES ($1, 'pem', $2, now())`,
      ['Platform:rotate', v1],
    );
    return runScript(dir); // the database is held: as by a running server
  });
  expect(refused.code, refused.out).toBe(1);
  expect(refused.out).toMatch(/stop the server/);
  expect(readFileSync(path.join(dir, 'secret.key'), 'utf8')).toBe(`${old.toString('hex')}\n`); // untouched

  const rotated = await runScript(dir);
  expect(rotated.code, rotated.out).toBe(0);
  const next = Buffer.from(/^key ([0-9a-f]{64})$/m.exec(readFileSync(path.join(dir, 'secret.key'), 'utf8'))![1], 'hex');
  const sealed = await withDatabase(
    dir,
    async (c) =>
      (
        await c.query(
          `SELECT "encryptedPrivateKey" AS v FROM "WebhookSigningKey" WHERE "platformId" = 'Platform:rotate'`,
        )
      ).rows[0].v as string,
  );
  const [version, id, body] = sealed.split('.');
  expect([version, id]).toEqual(['v2', keyId(next)]);
  const raw = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', subkey(next), raw.subarray(0, 12), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(`v2.${id}.${context}`));
  decipher.setAuthTag(raw.subarray(-16));
  expect(Buffer.concat([decipher.update(raw.subarray(12, -16)), decipher.final()]).toString()).toBe(
    'private key bytes',
  );
}, 120_000);
