import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { nowFor } from '@/lib/core/clock';
import * as platforms from '@/lib/platform/repository';
import { freezeClock } from '@/lib/sandbox/clock';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { receiverFor, startReceiver, type Receiver, type Responder } from '@/tests/support/webhook-receiver';
import { attemptsOf, findEvent } from './repository';
import { bodyAt, deliverDueWebhooks, FIRST_RETRY_DELAY_MS, RETRY_WINDOW_MS } from './service';
import { db } from '@/lib/core/db';

// Outbox delivery end to end: real API requests record events, deliverDueWebhooks() (what the
// worker runs) sends them to a real HTTP receiver on 127.0.0.1 that verifies every signature.
// Time moves with the platform's sandbox clock, never by sleeping.
const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const individual = (fullName: string) => ({
  customerType: 'INDIVIDUAL',
  fullName,
  birthDate: '1990-01-15',
  nationality: 'US',
  address,
});

const receivers: Receiver[] = [];
beforeAll(() => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1'; // the receivers listen on loopback
});
afterAll(async () => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  await Promise.all(receivers.map((r) => r.close()));
});

/** A platform whose webhookEndpoint is a fresh receiver that knows the key from GET /config. */
async function platformWithReceiver(
  respond?: Responder,
): Promise<{ p: TestPlatform; rx: Receiver; publicKeyPem: string }> {
  const p = await newPlatform();
  const { rx, publicKeyPem } = await receiverFor(p, respond);
  receivers.push(rx);
  return { p, rx, publicKeyPem };
}

async function createCustomer(p: TestPlatform, fullName = 'Ada Lovelace abc') {
  const res = await p.api.post('/customers', individual(fullName));
  expect(res.status, res.text).toBe(201);
  const event = (await eventsOf(p.platformId, 'CUSTOMER.KYC_APPROVED')).find((e) => e.body.data.id === res.body.id);
  expect(event, 'KYC_APPROVED event recorded').toBeDefined();
  return event!;
}

/** Moves the platform's sandbox clock forward to `at` (a frozen one exactly; a running one just past it). */
async function advanceTo(platformId: string, at: Date) {
  const platform = (await platforms.findById(platformId, db()))!;
  const ahead = at.getTime() - nowFor(platform).getTime() + (platform.clockFrozenAt ? 0 : 100);
  if (ahead > 0) await platforms.advanceClock(platformId, BigInt(ahead));
}

it('delivers state-change events with a valid signature over the stored body, stamped with the send time', async () => {
  const { p, rx, publicKeyPem } = await platformWithReceiver();
  const event = await createCustomer(p);
  // The request that caused the event did not wait for any delivery.
  expect(rx.received).toHaveLength(0);
  expect(await findEvent(event.id)).toMatchObject({ status: 'PENDING', attempts: 0, deliveredAt: null });

  const summary = await deliverDueWebhooks({ platformId: p.platformId });
  // The TEST webhook queued by setting the endpoint (reference: "sent when you configure ... a webhook URL") and the KYC event.
  expect(summary).toMatchObject({ attempted: 2, delivered: 2, retrying: 0, failed: 0 });
  const all = await eventsOf(p.platformId);
  expect(all.map((e) => e.type).sort()).toEqual(['CUSTOMER.KYC_APPROVED', 'TEST']);
  for (const e of all) {
    const got = rx.forId(e.id);
    expect(got).toHaveLength(1);
    const [attempt] = await attemptsOf(e.id);
    // The stored event as it was recorded, its timestamp the time it was sent (reference).
    expect(got[0].body.equals(Buffer.from(bodyAt(e.payload, attempt.startedAt), 'utf8'))).toBe(true);
    expect(got[0].json).toEqual({ ...e.body, timestamp: attempt.startedAt.toISOString() });
    expect(attempt.startedAt.getTime()).toBeGreaterThanOrEqual(e.createdAt.getTime());
    expect(got[0].signatureValid).toBe(true);
    expect(got[0].headers['content-type']).toBe('application/json');
    expect(got[0].path).toBe('/hooks');
    // The check is real: one changed byte no longer verifies.
    const tampered = Buffer.from(got[0].body.toString('utf8').replace(e.body.type, e.body.type.toLowerCase()), 'utf8');
    expect(verify('sha256', tampered, createPublicKey(publicKeyPem), Buffer.from(got[0].signature!, 'base64'))).toBe(
      false,
    );
    const row = await findEvent(e.id);
    expect(row).toMatchObject({ status: 'DELIVERED', attempts: 1, nextAttemptAt: null });
    expect(row!.deliveredAt).toBeInstanceOf(Date);
    const attempts = await attemptsOf(e.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      url: rx.url,
      responseStatus: 200,
      error: null,
      responseExcerpt: 'ok',
      succeeded: true,
      platformId: p.platformId,
    });
    expect(attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
  }
  expect(rx.forId(event.id)[0].json).toMatchObject({
    type: 'CUSTOMER.KYC_APPROVED',
    data: { kycStatus: 'APPROVED' },
  });
  // Nothing is sent twice.
  expect((await deliverDueWebhooks({ platformId: p.platformId })).attempted).toBe(0);
  expect(rx.received).toHaveLength(2);
});

it('retries a failing receiver with growing delays on the platform clock and records each attempt', async () => {
  const respond: Responder = (r, n) =>
    r.json.type === 'TEST' || n > 2 ? { status: 200, body: 'thanks' } : { status: 500, body: 'boom' };
  const { p, rx } = await platformWithReceiver(respond);
  const event = await createCustomer(p);

  await deliverDueWebhooks({ platformId: p.platformId });
  let row = (await findEvent(event.id))!;
  let attempts = await attemptsOf(event.id);
  expect(row).toMatchObject({ status: 'PENDING', attempts: 1 });
  expect(attempts.map((a) => a.responseStatus)).toEqual([500]);
  const firstDelay = row.nextAttemptAt!.getTime() - attempts[0].startedAt.getTime();
  expect(firstDelay).toBeGreaterThanOrEqual(FIRST_RETRY_DELAY_MS);
  expect(firstDelay).toBeLessThan(FIRST_RETRY_DELAY_MS * 1.1 + 2000);

  // Not due yet on the platform clock: nothing is sent.
  expect((await deliverDueWebhooks({ platformId: p.platformId })).attempted).toBe(0);
  expect(rx.forId(event.id)).toHaveLength(1);

  await advanceTo(p.platformId, row.nextAttemptAt!);
  expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ attempted: 1, retrying: 1 });
  row = (await findEvent(event.id))!;
  attempts = await attemptsOf(event.id);
  expect(row).toMatchObject({ status: 'PENDING', attempts: 2 });
  const secondDelay = row.nextAttemptAt!.getTime() - attempts[1].startedAt.getTime();
  expect(secondDelay).toBeGreaterThanOrEqual(2 * FIRST_RETRY_DELAY_MS);
  expect(secondDelay).toBeGreaterThan(firstDelay);

  await advanceTo(p.platformId, row.nextAttemptAt!);
  expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ attempted: 1, delivered: 1 });
  row = (await findEvent(event.id))!;
  attempts = await attemptsOf(event.id);
  expect(row).toMatchObject({ status: 'DELIVERED', attempts: 3, nextAttemptAt: null });
  expect(attempts.map((a) => [a.attempt, a.responseStatus, a.succeeded, a.responseExcerpt])).toEqual([
    [1, 500, false, 'boom'],
    [2, 500, false, 'boom'],
    [3, 200, true, 'thanks'],
  ]);
  // The gaps between attempts, on the platform clock, grow.
  const gap1 = attempts[1].startedAt.getTime() - attempts[0].startedAt.getTime();
  const gap2 = attempts[2].startedAt.getTime() - attempts[1].startedAt.getTime();
  expect(gap1).toBeGreaterThanOrEqual(FIRST_RETRY_DELAY_MS);
  expect(gap2).toBeGreaterThan(gap1);
  const got = rx.forId(event.id);
  expect(got).toHaveLength(3);
  expect(got.every((g) => g.signatureValid)).toBe(true);
  // Each attempt carries its own send time, not the event's creation time; all else is the same.
  expect(got.map((g) => g.json.timestamp)).toEqual(attempts.map((a) => a.startedAt.toISOString()));
  expect(new Set(got.map((g) => g.json.timestamp)).size).toBe(3);
  for (const g of got) expect({ ...g.json, timestamp: undefined }).toEqual({ ...event.body, timestamp: undefined });
});

it('a TEST queued for an endpoint that is replaced before delivery is not sent to the new one', async () => {
  const first = await startReceiver();
  const second = await startReceiver();
  receivers.push(first, second);
  const p = await newPlatform();
  expect((await p.api.patch('/config', { webhookEndpoint: first.url })).status).toBe(200);
  expect((await p.api.patch('/config', { webhookEndpoint: second.url })).status).toBe(200);
  const tests = await eventsOf(p.platformId, 'TEST');
  expect(tests).toHaveLength(2);
  expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ attempted: 1, delivered: 1 });
  expect(first.received).toHaveLength(0);
  expect(second.received.map((r) => r.json.id)).toEqual([tests[1].id]);
  expect(await findEvent(tests[0].id)).toMatchObject({ status: 'SKIPPED', attempts: 0 });
  // Setting the same endpoint again queues nothing new.
  expect((await p.api.patch('/config', { webhookEndpoint: second.url })).status).toBe(200);
  expect(await eventsOf(p.platformId, 'TEST')).toHaveLength(2);
});

it('POST /sandbox/clock/advance reports the webhooks delivered, not those merely attempted', async () => {
  const failing = await platformWithReceiver(() => ({ status: 500, body: 'boom' }));
  const res = await failing.p.api.post('/sandbox/clock/advance', { seconds: 1 });
  expect(res.status, res.text).toBe(200);
  expect(res.body.webhooksDelivered).toBe(0);
  expect(failing.rx.received).toHaveLength(1); // the TEST webhook was attempted
  const working = await platformWithReceiver();
  expect((await working.p.api.post('/sandbox/clock/advance', { seconds: 1 })).body.webhooksDelivered).toBe(1);
});

it('does not follow a redirect: a 3xx is a failed attempt', async () => {
  const { p, rx } = await platformWithReceiver((r) =>
    r.json.type === 'TEST'
      ? { status: 200 }
      : { status: 302, headers: { location: rx.url.replace('/hooks', '/elsewhere') } },
  );
  const event = await createCustomer(p);
  await deliverDueWebhooks({ platformId: p.platformId });
  expect(rx.forId(event.id).map((r) => r.path)).toEqual(['/hooks']);
  expect(rx.received.some((r) => r.path === '/elsewhere')).toBe(false);
  const [attempt] = await attemptsOf(event.id);
  expect(attempt).toMatchObject({ responseStatus: 302, succeeded: false });
  expect(await findEvent(event.id)).toMatchObject({ status: 'PENDING', attempts: 1 });
});

it('refuses a loopback endpoint without CORRIDOR_WEBHOOK_ALLOW_PRIVATE and records the refusal', async () => {
  const { p, rx } = await platformWithReceiver();
  const event = await createCustomer(p);
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  try {
    expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({
      attempted: 2,
      delivered: 0,
      retrying: 2,
    });
  } finally {
    process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
  }
  expect(rx.received).toHaveLength(0);
  const [attempt] = await attemptsOf(event.id);
  expect(attempt).toMatchObject({ responseStatus: null, succeeded: false, url: rx.url });
  expect(attempt.error).toMatch(/127\.0\.0\.1.*private, loopback or link-local/);
  expect(await findEvent(event.id)).toMatchObject({ status: 'PENDING', attempts: 1 });
});

it('gives up after the 7-day window: the last attempt is at the 7-day mark, then FAILED', async () => {
  const { p, rx } = await platformWithReceiver(() => ({ status: 503, body: 'down' }));
  // Frozen, the clock moves only when advanced: "10 s before the deadline" stays 10 s before it.
  await freezeClock(p.platformId);
  const event = await createCustomer(p);
  const deadline = event.createdAt.getTime() + RETRY_WINDOW_MS;

  await deliverDueWebhooks({ platformId: p.platformId });
  await advanceTo(p.platformId, new Date(event.createdAt.getTime() + 6 * 24 * 3600_000));
  await deliverDueWebhooks({ platformId: p.platformId });
  expect(await findEvent(event.id)).toMatchObject({ status: 'PENDING', attempts: 2 });

  // Shortly before the deadline: the next attempt is clamped to the deadline itself.
  await advanceTo(p.platformId, new Date(deadline - 10_000));
  await deliverDueWebhooks({ platformId: p.platformId });
  const row = (await findEvent(event.id))!;
  expect(row).toMatchObject({ status: 'PENDING', attempts: 3 });
  expect(row.nextAttemptAt!.getTime()).toBe(deadline);

  await advanceTo(p.platformId, new Date(deadline));
  await deliverDueWebhooks({ platformId: p.platformId });
  expect(await findEvent(event.id)).toMatchObject({
    status: 'FAILED',
    attempts: 4,
    nextAttemptAt: null,
    deliveredAt: null,
  });
  const attempts = await attemptsOf(event.id);
  expect(attempts.map((a) => [a.attempt, a.responseStatus, a.succeeded])).toEqual(
    [1, 2, 3, 4].map((n) => [n, 503, false]),
  );
  expect(attempts[3].startedAt.getTime()).toBeGreaterThanOrEqual(deadline);

  // Failed is final: more time, no more attempts.
  await advanceTo(p.platformId, new Date(deadline + 24 * 3600_000));
  expect((await deliverDueWebhooks({ platformId: p.platformId })).attempted).toBe(0);
  expect(rx.forId(event.id)).toHaveLength(4);
});

it('skips events while the platform has no endpoint, and delivers those recorded after one is set', async () => {
  const p = await newPlatform();
  const before = await createCustomer(p, 'Before Endpoint abc');
  // SKIPPED as it is written (the database's insert trigger): no second write, nothing to sweep.
  expect(await findEvent(before.id)).toMatchObject({ status: 'SKIPPED', attempts: 0, nextAttemptAt: null });
  expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ skipped: 0, attempted: 0 });
  expect(await attemptsOf(before.id)).toEqual([]);

  const rx = await startReceiver();
  receivers.push(rx);
  expect((await p.api.patch('/config', { webhookEndpoint: rx.url })).status).toBe(200);
  const after = await createCustomer(p, 'After Endpoint abc');
  expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ skipped: 0, delivered: 2 });
  expect(rx.forId(after.id)).toHaveLength(1);
  expect(rx.forId(before.id)).toHaveLength(0);
  expect(await findEvent(before.id)).toMatchObject({ status: 'SKIPPED' });
});

it('skips an event still retrying once the endpoint is removed', async () => {
  const { p, rx } = await platformWithReceiver(() => ({ status: 503, body: 'down' }));
  const event = await createCustomer(p, 'Retrying Then Removed abc');
  expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ attempted: 2, retrying: 2 });
  const row = (await findEvent(event.id))!;
  expect(row).toMatchObject({ status: 'PENDING', attempts: 1 });
  expect((await p.api.patch('/config', { webhookEndpoint: null })).status).toBe(200);
  await advanceTo(p.platformId, row.nextAttemptAt!);
  const pass = await deliverDueWebhooks({ platformId: p.platformId });
  expect(pass.attempted).toBe(0);
  expect(pass.skipped).toBeGreaterThanOrEqual(1); // this event (the other may not be due yet: jitter)
  expect(await findEvent(event.id)).toMatchObject({ status: 'SKIPPED', attempts: 1, nextAttemptAt: null });
  expect(rx.forId(event.id)).toHaveLength(1);
});

it('several delivery passes at once send each event exactly once', async () => {
  const { p, rx } = await platformWithReceiver();
  for (let i = 0; i < 6; i++) await createCustomer(p, `Parallel ${i} abc`);
  const passes = await Promise.all([1, 2, 3].map(() => deliverDueWebhooks({ platformId: p.platformId, limit: 2 })));
  expect(passes.reduce((n, s) => n + s.attempted, 0)).toBe(7);
  const events = await eventsOf(p.platformId);
  expect(events).toHaveLength(7);
  for (const e of events) {
    expect(rx.forId(e.id)).toHaveLength(1);
    expect(await attemptsOf(e.id)).toHaveLength(1);
    expect(await findEvent(e.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 });
  }
});
