import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { eventsOf } from '@/lib/events/outbox';
import { historyOf } from '@/lib/staff/audit';
import * as ops from '@/lib/staff/operations';
import * as staff from '@/lib/staff/service';
import type { StaffActor } from '@/lib/staff/roles';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { receiverFor, type Receiver, type Responder } from '@/tests/support/webhook-receiver';
import { EVENT_KINDS } from './kinds';
import { chooseEventKinds, eventKinds, getDelivery } from './log';
import { attemptsOf, findEvent } from './repository';
import { deliverDueWebhooks } from './service';

// The console's webhook controls (issue 26, point 8) end to end against a real HTTP receiver on
// 127.0.0.1 that checks every signature: the event kinds the endpoint receives, "Send a test
// event", and a replay that records and reports its own attempt. Run as staff members, through
// lib/staff/operations (role check and audit entry) as the console's commands run them.
const receivers: Receiver[] = [];
beforeAll(() => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
});
afterAll(async () => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  await Promise.all(receivers.map((r) => r.close()));
});

let n = 0;
async function member(p: TestPlatform, role: 'viewer' | 'operator' | 'admin'): Promise<StaffActor> {
  const email = `${role}-${process.pid}-${Date.now()}-${++n}@hooks.example`;
  const password = 'a-long-enough-password';
  await staff.createUser(p.platformId, { email, role, password }, db());
  return (await staff.actorOf((await staff.signIn(email, password)).sessionId))!;
}

async function setup(respond?: Responder) {
  const p = await newPlatform();
  const { rx } = await receiverFor(p, respond);
  receivers.push(rx);
  await deliverDueWebhooks({ platformId: p.platformId }); // the TEST queued by setting the endpoint
  rx.received.length = 0;
  return { p, rx, admin: await member(p, 'admin'), operator: await member(p, 'operator') };
}

async function customerEvent(p: TestPlatform, fullName: string) {
  const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
  const body = { customerType: 'INDIVIDUAL', fullName, birthDate: '1990-01-15', nationality: 'US', address };
  const res = await p.api.post('/customers', body);
  expect(res.status, res.text).toBe(201);
  const event = (await eventsOf(p.platformId, 'CUSTOMER.KYC_APPROVED')).find((e) => e.body.data.id === res.body.id);
  return (await findEvent(event!.id))!;
}

const code = (err: unknown) => (err instanceof DomainError ? err.code : String(err));

describe('event kinds the endpoint receives', () => {
  it('are all by default; kinds left out are skipped as written, never sent, and say why', async () => {
    const { p, rx, admin, operator } = await setup();
    expect(await eventKinds(p.platformId)).toEqual({ all: true, chosen: [...EVENT_KINDS] });
    const sent = await customerEvent(p, 'Chosen Kind abc');
    expect(sent).toMatchObject({ status: 'PENDING', skipReason: null });

    expect(code(await ops.chooseWebhookKinds(operator, ['CARD.STATE_CHANGE']).catch((e) => e))).toBe('FORBIDDEN');
    const r = await ops.chooseWebhookKinds(admin, ['OUTGOING_PAYMENT.COMPLETED', 'CARD.STATE_CHANGE']);
    expect(r).toEqual({ all: false, chosen: ['OUTGOING_PAYMENT.COMPLETED', 'CARD.STATE_CHANGE'] });
    const skipped = await customerEvent(p, 'Unchosen Kind abc');
    expect(skipped).toMatchObject({ status: 'SKIPPED', skipReason: 'KIND_NOT_CHOSEN', nextAttemptAt: null });

    // The event recorded before the choice was waiting: it is skipped too when it comes due.
    const summary = await deliverDueWebhooks({ platformId: p.platformId });
    expect(summary).toMatchObject({ skipped: 1, attempted: 0 });
    expect(await findEvent(sent.id)).toMatchObject({ status: 'SKIPPED', skipReason: 'KIND_NOT_CHOSEN' });
    expect(rx.received).toEqual([]);
    const detail = await getDelivery(p.platformId, skipped.id);
    expect(detail.skipReason).toBe('KIND_NOT_CHOSEN');
    // The console disables Replay with the reason the replay would be refused for.
    expect(detail.replayBlocked).toBe(
      'The webhook endpoint does not receive CUSTOMER.KYC_APPROVED events; choose that kind first',
    );
    // A replay of a kind the endpoint does not receive is refused, sending nothing.
    expect(code(await ops.replayWebhook(operator, skipped.id).catch((e) => e))).toBe('INVALID_STATE_TRANSITION');
    expect(rx.received).toEqual([]);
    expect((await historyOf(p.platformId, [p.platformId]))[0]).toMatchObject({ action: 'webhook.kinds' });

    // Choosing the kind again: new events of it are delivered; choosing every kind stores "all".
    await ops.chooseWebhookKinds(admin, ['CUSTOMER.KYC_APPROVED']);
    expect((await getDelivery(p.platformId, skipped.id)).replayBlocked).toBeNull(); // replayable now
    const again = await customerEvent(p, 'Chosen Again abc');
    expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ attempted: 1, delivered: 1 });
    expect(rx.forId(again.id)).toHaveLength(1);
    expect(await chooseEventKinds(p.platformId, [...EVENT_KINDS])).toMatchObject({ all: true });
    expect(await db().webhookSettings.findUnique({ where: { platformId: p.platformId } })).toBeNull();
  });

  it('refuses an unknown kind with INVALID_INPUT, changing nothing', async () => {
    const { p, admin } = await setup();
    expect(code(await ops.chooseWebhookKinds(admin, ['NOPE.NEVER']).catch((e) => e))).toBe('INVALID_INPUT');
    expect(await eventKinds(p.platformId)).toMatchObject({ all: true });
  });
});

describe('send a test event', () => {
  it('delivers a signed TEST event, reports its attempt with the excerpt, and is audited', async () => {
    const { p, rx, operator } = await setup(() => ({ status: 202, body: 'got it' }));
    await ops.chooseWebhookKinds(await member(p, 'admin'), []); // TEST is sent whatever is chosen
    const r = await ops.sendTestWebhook(operator);
    expect(r).toMatchObject({ delivered: true, attempt: { attempt: 1, responseStatus: 202, succeeded: true } });
    expect(r.attempt.responseExcerpt).toBe('got it');
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]).toMatchObject({ signatureValid: true, json: { id: r.eventId, type: 'TEST', data: {} } });
    expect(await findEvent(r.eventId)).toMatchObject({ type: 'TEST', status: 'DELIVERED', attempts: 1 });
    const [entry] = await historyOf(p.platformId, [p.platformId]);
    expect(entry).toMatchObject({ action: 'webhook.test', details: { eventId: r.eventId, delivered: true } });
  });

  it('reports a failed send as its outcome (not an error), and needs an operator', async () => {
    const { p, operator } = await setup(() => ({ status: 500, body: 'kaput' }));
    const r = await ops.sendTestWebhook(operator);
    expect(r).toMatchObject({ delivered: false, attempt: { responseStatus: 500, succeeded: false } });
    expect(r.attempt.responseExcerpt).toBe('kaput');
    const viewer = await member(p, 'viewer');
    expect(code(await ops.sendTestWebhook(viewer).catch((e) => e))).toBe('FORBIDDEN');
  });
});

describe('replay', () => {
  it('records its own attempt, marked with who replayed it, and reports that attempt', async () => {
    let answer = 503;
    const { p, rx, operator } = await setup(() => ({ status: answer, body: `answer ${answer}` }));
    const event = await customerEvent(p, 'Replayed Event abc');
    expect(await deliverDueWebhooks({ platformId: p.platformId })).toMatchObject({ retrying: 1 });
    // Waiting for a retry: not replayable (the retry is the worker's).
    expect(code(await ops.replayWebhook(operator, event.id).catch((e) => e))).toBe('INVALID_STATE_TRANSITION');

    await db().event.update({ where: { id: event.id }, data: { status: 'FAILED', nextAttemptAt: null } });
    answer = 200;
    const d = await ops.replayWebhook(operator, event.id);
    expect(d.replayAttempt).toMatchObject({ attempt: 2, responseStatus: 200, succeeded: true });
    expect(d.replayAttempt.replayedBy).toBe(operator.email);
    expect(d).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    expect(rx.forId(event.id).map((r) => r.signatureValid)).toEqual([true, true]);

    // A second replay of the delivered event: a third attempt of its own, whatever it answers.
    answer = 500;
    const again = await ops.replayWebhook(operator, event.id);
    expect(again.replayAttempt).toMatchObject({ attempt: 3, responseStatus: 500, succeeded: false });
    expect(again.status).toBe('PENDING'); // a failed replay is retried like any attempt
    const rows = await attemptsOf(event.id);
    expect(rows.map((a) => [a.attempt, a.responseStatus, a.replayedBy])).toEqual([
      [1, 503, null],
      [2, 200, operator.email],
      [3, 500, operator.email],
    ]);
    const history = (await getDelivery(p.platformId, event.id)).history;
    expect(history.map((a) => a.attempt)).toEqual([3, 2, 1]);
    const entries = await historyOf(p.platformId, [event.id]);
    expect(entries[0]).toMatchObject({ action: 'webhook.replay', details: { attempt: 3, succeeded: false } });
  });
});
