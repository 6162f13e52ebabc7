import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { startReceiver, type Receiver } from '@/tests/support/webhook-receiver';
import { attemptsOf, findEvent } from './repository';

// POST /sandbox/webhooks/test: a signed TEST webhook sent synchronously; its outcome is the answer.
const receivers: Receiver[] = [];
beforeAll(() => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
});
afterAll(async () => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  await Promise.all(receivers.map((r) => r.close()));
});

async function withEndpoint(url: string): Promise<TestPlatform> {
  const p = await newPlatform();
  expect((await p.api.patch('/config', { webhookEndpoint: url })).status).toBe(200);
  return p;
}

async function receiver(respond: Parameters<typeof startReceiver>[0]) {
  const rx = await startReceiver(respond);
  receivers.push(rx);
  return rx;
}

/** The TEST event the sandbox call recorded (the outbox also holds the one queued by PATCH /config). */
async function sandboxTestEvent(p: TestPlatform) {
  const tests = (await eventsOf(p.platformId, 'TEST')).filter((e) => e.attempts === 1 && e.status !== 'PENDING');
  expect(tests).toHaveLength(1);
  return tests[0];
}

it('answers WEBHOOK_ENDPOINT_NOT_SET when no endpoint is configured, sending and recording nothing', async () => {
  const p = await newPlatform();
  expectError(await p.api.post('/sandbox/webhooks/test'), 400, 'WEBHOOK_ENDPOINT_NOT_SET');
  expect(await eventsOf(p.platformId)).toEqual([]);
});

it('delivers a signed TEST webhook and returns the receiver status and timing, never its body', async () => {
  const rx = await receiver(() => ({ status: 200, body: 'received!' }));
  const p = await withEndpoint(rx.url);
  rx.setPublicKey((await p.api.get('/config')).body.webhookSigningPublicKey);
  const res = await p.api.post('/sandbox/webhooks/test');
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ url: rx.url, response_status: 200, response_time_ms: expect.any(Number) });
  expect(res.body.response_time_ms).toBeGreaterThanOrEqual(0);
  expect(res.text).not.toContain('received!');
  expect(rx.received).toHaveLength(1);
  const got = rx.received[0];
  expect(got.signatureValid).toBe(true);
  expect(got.json).toMatchObject({ type: 'TEST', data: {} });
  expect(got.json.id).toMatch(/^Webhook:[0-9a-f-]{36}$/);
  const event = await sandboxTestEvent(p);
  expect(event.id).toBe(got.json.id);
  expect(got.body.equals(Buffer.from(event.payload, 'utf8'))).toBe(true);
  expect(event).toMatchObject({ status: 'DELIVERED', attempts: 1 });
  expect(await attemptsOf(event.id)).toEqual([
    expect.objectContaining({
      attempt: 1,
      url: rx.url,
      responseStatus: 200,
      responseExcerpt: 'received!',
      succeeded: true,
      error: null,
    }),
  ]);
});

it('answers WEBHOOK_DELIVERY_ERROR when the endpoint does not answer 2xx, and records the attempt', async () => {
  const rx = await receiver(() => ({ status: 500, body: 'kaput' }));
  const p = await withEndpoint(rx.url);
  const res = await p.api.post('/sandbox/webhooks/test');
  expectError(res, 400, 'WEBHOOK_DELIVERY_ERROR');
  expect(res.body.details).toEqual({ url: rx.url, response_status: 500, response_time_ms: expect.any(Number) });
  expect(res.text).not.toContain('kaput');
  expect(rx.received).toHaveLength(1);
  const event = await sandboxTestEvent(p);
  expect(event).toMatchObject({ status: 'FAILED', attempts: 1 });
  expect(await attemptsOf(event.id)).toEqual([
    expect.objectContaining({ attempt: 1, responseStatus: 500, succeeded: false }),
  ]);
});

it('answers WEBHOOK_DELIVERY_ERROR for a redirect without following it', async () => {
  const rx = await receiver((r) =>
    r.path === '/hooks' ? { status: 307, headers: { location: '/moved' } } : { status: 200 },
  );
  const p = await withEndpoint(rx.url);
  const res = await p.api.post('/sandbox/webhooks/test');
  expectError(res, 400, 'WEBHOOK_DELIVERY_ERROR');
  expect(res.body.details.response_status).toBe(307);
  expect(rx.received.map((r) => r.path)).toEqual(['/hooks']);
});

it('answers WEBHOOK_DELIVERY_ERROR when the endpoint cannot be reached, and records the error', async () => {
  // A port that was just free: nothing listens there.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const url = `http://127.0.0.1:${port}/hooks`;
  const p = await withEndpoint(url);
  const res = await p.api.post('/sandbox/webhooks/test');
  expectError(res, 400, 'WEBHOOK_DELIVERY_ERROR');
  expect(res.body.details).toMatchObject({ url });
  expect(res.body.details.response_status).toBeUndefined();
  expect(res.body.details.error).toBe('ECONNREFUSED: connection refused');
  const event = await sandboxTestEvent(p);
  const [attempt] = await attemptsOf(event.id);
  expect(attempt).toMatchObject({ responseStatus: null, succeeded: false });
  expect(attempt.error).toBe('ECONNREFUSED: connection refused');
  expect(await findEvent(event.id)).toMatchObject({ status: 'FAILED' });
});

it('answers WEBHOOK_DELIVERY_ERROR for a loopback endpoint when private targets are not allowed', async () => {
  const rx = await receiver(() => ({ status: 200 }));
  const p = await withEndpoint(rx.url);
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  try {
    const res = await p.api.post('/sandbox/webhooks/test');
    expectError(res, 400, 'WEBHOOK_DELIVERY_ERROR');
    expect(res.body.message).toMatch(/private, loopback or link-local/);
  } finally {
    process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
  }
  expect(rx.received).toHaveLength(0);
});

it('needs the MANAGE permission', async () => {
  const p = await newPlatform();
  const viewer = await p.withPermissions('VIEW');
  expectError(await viewer.post('/sandbox/webhooks/test'), 403, 'FORBIDDEN');
});
