import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import { boot, BootError, type CorridorInstance } from '@/lib/boot';
import { currentCorridor } from '@/lib/core/context';
import { loadKeyring } from '@/lib/core/crypto/master-key';
import { Api, expectError, newPlatform } from '@/tests/support/api';

// API secrets at rest: a keyed hash (HMAC-SHA256 under the hash key), legacy SHA-256 rows
// upgraded at their next successful authentication, and bootstrap secrets refused when short.
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The keyed hash as lib/core/crypto/vault.ts derives it, recomputed independently from the hash key. */
function keyed(secret: string): string {
  const key = Buffer.from(hkdfSync('sha256', loadKeyring().hashKey, 'corridor-wallet-auth', 'tag', 32));
  return createHmac('sha256', key).update('api-secret').update('\0').update(secret).digest('hex');
}

async function row(id: string) {
  return db().apiToken.findUniqueOrThrow({ where: { id }, select: { secretHash: true, secretHashVersion: true } });
}

const envBefore = { ...process.env };
afterEach(() => {
  for (const k of ['CORRIDOR_CLIENT_ID', 'CORRIDOR_CLIENT_SECRET', 'CORRIDOR_WORKER'])
    if (envBefore[k] === undefined) delete process.env[k];
    else process.env[k] = envBefore[k];
  vi.restoreAllMocks();
});

describe('API secrets at rest', () => {
  it('stores a keyed hash of a new token secret, never the bare SHA-256', async () => {
    const p = await newPlatform();
    const made = await p.api.post('/tokens', { name: 'stored', permissions: ['VIEW'] });
    expect(made.status, made.text).toBe(201);
    const stored = await row(made.body.id);
    expect(stored.secretHashVersion).toBe(2);
    expect(stored.secretHash).toBe(keyed(made.body.clientSecret));
    expect(stored.secretHash).not.toBe(sha256(made.body.clientSecret));
    const t = new Api({ clientId: made.body.clientId, clientSecret: made.body.clientSecret });
    expect((await t.get('/config')).status).toBe(200);
    expectError(
      await new Api({ ...t.credentials!, clientSecret: 'x' + t.credentials!.clientSecret }).get('/config'),
      401,
      'UNAUTHORIZED',
    );
  });

  it('verifies a legacy SHA-256 row once and rewrites it as a keyed hash', async () => {
    const p = await newPlatform();
    const made = await p.api.post('/tokens', { name: 'legacy', permissions: ['VIEW'] });
    const secret = made.body.clientSecret as string;
    await db().apiToken.update({
      where: { id: made.body.id },
      data: { secretHash: sha256(secret), secretHashVersion: 1 },
    });
    const t = new Api({ clientId: made.body.clientId, clientSecret: secret });
    // A wrong secret neither works nor rewrites anything.
    expectError(
      await new Api({ clientId: made.body.clientId, clientSecret: 'wrong' }).get('/config'),
      401,
      'UNAUTHORIZED',
    );
    expect(await row(made.body.id)).toEqual({ secretHash: sha256(secret), secretHashVersion: 1 });
    expect((await t.get('/config')).status).toBe(200);
    expect(await row(made.body.id)).toEqual({ secretHash: keyed(secret), secretHashVersion: 2 });
    expect((await new Api({ clientId: made.body.id, clientSecret: secret }).get('/config')).status).toBe(200);
  });

  it('refuses a row whose version it does not know', async () => {
    const p = await newPlatform();
    const made = await p.api.post('/tokens', { name: 'unknown version', permissions: ['VIEW'] });
    await db().apiToken.update({ where: { id: made.body.id }, data: { secretHashVersion: 7 } });
    const t = new Api({ clientId: made.body.clientId, clientSecret: made.body.clientSecret });
    expectError(await t.get('/config'), 401, 'UNAUTHORIZED');
  });
});

// The test process's instance (tests/setup.ts), as instrumentation.ts hands the server's to boot.
const appInstance = () => currentCorridor() as CorridorInstance;

describe('bootstrap credentials', () => {
  it('refuses a CORRIDOR_CLIENT_SECRET shorter than 32 characters, with a clear message', async () => {
    process.env.CORRIDOR_CLIENT_ID = 'boot-short';
    process.env.CORRIDOR_CLIENT_SECRET = 'e2e-secret-0123456789';
    await expect(boot(appInstance())).rejects.toThrow(BootError);
    await expect(boot(appInstance())).rejects.toThrow(
      /CORRIDOR_CLIENT_SECRET is 21 characters long; it must have at least 32/,
    );
    expect(await db().apiToken.count({ where: { clientId: 'boot-short' } })).toBe(0);
  });

  it('ensures chosen credentials work, stores them keyed and never prints the secret', async () => {
    await newPlatform(); // boot attaches the credentials to an existing platform
    const clientId = `boot-${Date.now()}`;
    const first = 'a-chosen-secret-of-enough-length-0001';
    const second = 'a-chosen-secret-of-enough-length-0002';
    process.env.CORRIDOR_WORKER = 'off';
    process.env.CORRIDOR_CLIENT_ID = clientId;
    const logged: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void logged.push(a.join(' ')));
    process.env.CORRIDOR_CLIENT_SECRET = first;
    await boot(appInstance());
    expect((await new Api({ clientId, clientSecret: first }).get('/config')).status).toBe(200);
    process.env.CORRIDOR_CLIENT_SECRET = second;
    await boot(appInstance());
    expectError(await new Api({ clientId, clientSecret: first }).get('/config'), 401, 'UNAUTHORIZED');
    expect((await new Api({ clientId, clientSecret: second }).get('/config')).status).toBe(200);
    const token = await db().apiToken.findUniqueOrThrow({ where: { clientId } });
    expect(token).toMatchObject({ secretHash: keyed(second), secretHashVersion: 2 });
    expect(logged.join('\n')).toContain(clientId);
    expect(logged.join('\n')).not.toContain(first);
    expect(logged.join('\n')).not.toContain(second);
  });
});
