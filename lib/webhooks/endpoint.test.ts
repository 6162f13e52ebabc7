import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { startReceiver } from '@/tests/support/webhook-receiver';
import { deliverDueWebhooks } from './service';

// Webhook endpoints must be public http(s) URLs: refused when configured (PATCH /config, 400 on
// the field) as well as at delivery, and no answer or stored attempt ever says what a name
// resolved to. CORRIDOR_WEBHOOK_ALLOW_PRIVATE=1 (local development, most webhook tests) lifts it.
afterEach(() => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
});

const NOT_PUBLIC = [
  'http://127.0.0.1/hooks',
  'http://127.1:8080/hooks',
  'http://2130706433/hooks', // 127.0.0.1 written as one number
  'http://0x7f.0.0.1/hooks',
  'http://localhost:3000/hooks',
  'http://LOCALHOST./hooks',
  'http://[::1]/hooks',
  'http://0.0.0.0/hooks',
  'http://[::]/hooks',
  'http://10.1.2.3/hooks',
  'http://172.16.0.9/hooks',
  'http://192.168.1.1/hooks',
  'http://100.64.0.1/hooks',
  'http://169.254.169.254/latest/meta-data',
  'http://[fe80::1]/hooks',
  'http://[fd00::1]/hooks',
  'http://[fc00::7]/hooks',
  'http://224.0.0.1/hooks',
  'http://[ff02::1]/hooks',
  'http://255.255.255.255/hooks',
  'http://[::ffff:127.0.0.1]/hooks',
  'http://[::ffff:a9fe:a9fe]/hooks',
  'http://[64:ff9b::7f00:1]/hooks',
  'http://[2002:7f00:1::]/hooks',
  'http://198.18.0.1/hooks',
  'http://192.0.2.1/hooks',
  'https://name-that-does-not-exist.invalid/hooks',
];

/** Anything that looks like an address a name resolved to (the loopback answers of localhost). */
const RESOLVED = /127\.0\.0\.1|::1\b|resolves to/;

describe('webhook endpoints are public', () => {
  let p: TestPlatform;

  it('PATCH /config refuses private, loopback, link-local, unique-local, multicast, unspecified and unresolvable endpoints', async () => {
    p = await newPlatform();
    for (const url of NOT_PUBLIC) {
      const res = await p.api.patch('/config', { webhookEndpoint: url });
      expectError(res, 400, 'INVALID_INPUT');
      expect(
        res.body.details.errors.map((e: { field: string }) => e.field),
        url,
      ).toEqual(['webhookEndpoint']);
      // A name is refused as named; an address literal is named as the URL parser writes it.
      if (/localhost|\.invalid/i.test(url)) expect(res.text, url).not.toMatch(RESOLVED);
    }
    expect((await p.api.get('/config')).body.webhookEndpoint).toBeUndefined();
  });

  it('never says what a name resolved to, nor whether it resolved', async () => {
    p ??= await newPlatform();
    const local = await p.api.patch('/config', { webhookEndpoint: 'http://localhost:9/hooks' });
    const missing = await p.api.patch('/config', { webhookEndpoint: 'http://does-not-exist.invalid:9/hooks' });
    expectError(local, 400, 'INVALID_INPUT');
    expect(local.text).not.toMatch(RESOLVED);
    expect(local.body.message.replace('localhost', 'X')).toBe(
      missing.body.message.replace('does-not-exist.invalid', 'X'),
    );
  });

  it('accepts a public endpoint, and private ones where CORRIDOR_WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const q = await newPlatform();
    const pub = await q.api.patch('/config', { webhookEndpoint: 'https://93.184.215.14/hooks' });
    expect(pub.status, pub.text).toBe(200);
    expect(pub.body.webhookEndpoint).toBe('https://93.184.215.14/hooks');
    process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
    const dev = await q.api.patch('/config', { webhookEndpoint: 'http://localhost:4000/hooks' });
    expect(dev.status, dev.text).toBe(200);
  });

  it('refuses at delivery too, recording and answering no resolution result', async () => {
    const rx = await startReceiver(() => ({ status: 200, body: 'secret internal answer' }));
    try {
      const q = await newPlatform();
      process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1'; // configured while allowed...
      const url = `http://localhost:${rx.port}/hooks`;
      expect((await q.api.patch('/config', { webhookEndpoint: url })).status).toBe(200);
      delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE; // ...and delivered when it no longer is
      const test = await q.api.post('/sandbox/webhooks/test');
      expectError(test, 400, 'WEBHOOK_DELIVERY_ERROR');
      expect(test.body.details.error).toMatch(/^localhost does not resolve to public addresses only/);
      expect(test.text).not.toMatch(RESOLVED);
      await deliverDueWebhooks({ platformId: q.platformId });
      expect(rx.received).toHaveLength(0);
      const attempts = await db().webhookAttempt.findMany({ where: { platformId: q.platformId } });
      expect(attempts.length).toBeGreaterThanOrEqual(2); // the sandbox test and the queued TEST event
      for (const a of attempts) {
        expect(a.succeeded).toBe(false);
        expect(a.error).toMatch(/^localhost does not resolve to public addresses only/);
        expect(a.error).not.toMatch(RESOLVED);
      }
    } finally {
      await rx.close();
    }
  });

  it('reports connection failures without the address connected to', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
    const q = await newPlatform();
    expect((await q.api.patch('/config', { webhookEndpoint: `http://localhost:${port}/hooks` })).status).toBe(200);
    const res = await q.api.post('/sandbox/webhooks/test');
    expectError(res, 400, 'WEBHOOK_DELIVERY_ERROR');
    expect(res.body.details.error).toMatch(/^ECONN(REFUSED|RESET): /);
    expect(res.text).not.toMatch(RESOLVED);
    const [attempt] = await db().webhookAttempt.findMany({ where: { platformId: q.platformId, attempt: 1 } });
    expect(attempt.error).not.toMatch(RESOLVED);
  });
});
