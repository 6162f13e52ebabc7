import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/core/db';
import { Api, newPlatform, type TestPlatform } from '@/tests/support/api';
import { startPeer, type Peer } from '@/tests/support/peer';
import { cachesUsable, changing } from './invalidation';

// Cross-process invalidation: this test process and a second server process (its own pool,
// caches and listener) share the PostgreSQL database. A change made through one is seen by the
// other at once, although both cache credentials and settings. The embedded database serves one
// process only; there the same-process paths are what tokens.test.ts and config.test.ts check.
const embedded = inject('embedded');

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(embedded)('cache invalidation across server processes (PostgreSQL)', () => {
  let peer: Peer;
  let p: TestPlatform;
  beforeAll(async () => {
    peer = await startPeer();
    p = await newPlatform();
    await until(cachesUsable, 'the listener of this process');
  }, 120_000);
  afterAll(() => peer?.stop());

  async function newToken(name: string) {
    const made = await p.api.post('/tokens', { name, permissions: ['VIEW'] });
    expect(made.status, made.text).toBe(201);
    return {
      id: made.body.id as string,
      creds: { clientId: made.body.clientId, clientSecret: made.body.clientSecret },
    };
  }

  it('a token deleted through one process is refused by the other immediately', async () => {
    for (let i = 0; i < 5; i++) {
      const t = await newToken(`revoked ${i}`);
      // Used on the peer until it serves the token from its cache.
      for (let k = 0; k < 3; k++) expect((await peer.request('GET', '/config', t.creds)).status).toBe(200);
      expect((await p.api.delete(`/tokens/${t.id}`)).status).toBe(204);
      const after = await peer.request('GET', '/config', t.creds);
      expect(after.status, after.text).toBe(401);
      expect(after.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it("a platform's sandbox clock moved through one process is the other's clock at once", async () => {
    expect((await peer.request('GET', '/config', p.credentials)).status).toBe(200);
    const moved = await p.api.post('/sandbox/clock/advance', { seconds: 86_400 });
    expect(moved.status, moved.text).toBe(200);
    const made = await peer.request('POST', '/tokens', p.credentials, { name: 'clock', permissions: ['VIEW'] });
    expect(made.status, made.text).toBe(201);
    // Created on the platform's clock: a day ahead of the wall clock, not the cached offset's time.
    expect(new Date(made.body.createdAt).getTime()).toBeGreaterThan(Date.now() + 86_000_000);
  });

  it('a configuration changed through one process is what the other uses at once', async () => {
    const maxOf = async () => {
      const res = await peer.request('GET', '/exchange-rates?sourceCurrency=USD', p.credentials);
      expect(res.status, res.text).toBe(200);
      return Number(res.body.data[0].maxSendingAmount);
    };
    const before = await maxOf();
    const config = (await p.api.get('/config')).body;
    const usd = config.supportedCurrencies.find((c: { currencyCode: string }) => c.currencyCode === 'USD');
    const changed = await p.api.patch('/config', {
      supportedCurrencies: config.supportedCurrencies.map((c: { currencyCode: string }) =>
        c === usd ? { ...usd, maxAmount: 777_777 } : c,
      ),
    });
    expect(changed.status, changed.text).toBe(200);
    expect(before).not.toBe(777_777);
    expect(await maxOf()).toBe(777_777);
  });

  it('a process whose listener connection was cut misses nothing: its caches are off until it is back', async () => {
    const t = await newToken('cut');
    for (let k = 0; k < 3; k++) expect((await peer.request('GET', '/config', t.creds)).status).toBe(200);
    const cut = await db().$queryRaw<{ ok: boolean }[]>`
      SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE application_name LIKE ${`corridor-invalidation-${peer.pid}-%`}`;
    expect(cut).toEqual([{ ok: true }]);
    // Deleted while the peer may not be listening: its notification is lost to the peer.
    expect((await p.api.delete(`/tokens/${t.id}`)).status).toBe(204);
    expect((await peer.request('GET', '/config', t.creds)).status).toBe(401);
    // And the peer listens again afterwards (it reconnects by itself).
    const listening = async () =>
      (
        await db().$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE ${`corridor-invalidation-${peer.pid}-%`}`
      )[0].n;
    const end = Date.now() + 10_000;
    while ((await listening()) !== 1n && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(await listening()).toBe(1n);
    const other = await newToken('after reconnect');
    expect((await peer.request('GET', '/config', other.creds)).status).toBe(200);
    expect((await p.api.delete(`/tokens/${other.id}`)).status).toBe(204);
    expect((await peer.request('GET', '/config', other.creds)).status).toBe(401);
  });
});

describe('cache invalidation in one process', () => {
  it('announces a key too long for a NOTIFY (the other processes drop the whole topic)', async () => {
    await expect(changing([{ topic: 'test-topic', key: 'k'.repeat(10_000) }], async () => 'done')).resolves.toBe(
      'done',
    );
  });

  it('drops a deleted token and refuses it at once', async () => {
    const p = await newPlatform();
    const made = await p.api.post('/tokens', { name: 'local', permissions: ['VIEW'] });
    const t = new Api({ clientId: made.body.clientId, clientSecret: made.body.clientSecret });
    for (let k = 0; k < 3; k++) expect((await t.get('/config')).status).toBe(200);
    expect((await p.api.delete(`/tokens/${made.body.id}`)).status).toBe(204);
    expect((await t.get('/config')).status).toBe(401);
  });
});
