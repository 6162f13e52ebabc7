import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { POST as eventsRoute } from '@/app/cards/lithic/events/route';
import { db } from '@/lib/core/db';
import { adapterSummary, portsFor } from '@/lib/wiring';
import { lithicAsa, lithicAsaFromEnv } from './lithic';
import {
  ASA_SECRET,
  LITHIC_ENV,
  approved,
  holdOf,
  lithicProgram,
  paidOut,
  postEvents,
  transactionBody,
} from './lithic-testing';

// How Lithic's card_transaction.updated deliveries are taken: each event exactly once however
// often and however concurrently the webhook arrives, only Lithic's signature (the event
// subscription's secret, not the ASA one), and a 2xx for what no retry would change.
const { s, wallet } = lithicProgram('Dora Delivery');

const outcomes = (res: { body: Record<string, unknown> }) =>
  (res.body.events as { outcome: string }[]).map((e) => e.outcome);
const eventRows = (cardTransactionId: string) => db().cardEvent.count({ where: { cardTransactionId } });

describe('Lithic transaction events: exactly once', () => {
  it('the same delivery twice applies once: the second changes no ledger balance', async () => {
    const token = await approved(s.cardToken, 1_200);
    const body = transactionBody(token, s.cardToken, [{ type: 'CLEARING', amount: 1_200 }], 1_200);
    const first = await postEvents(body, { id: 'msg_same' });
    expect(outcomes(first)).toEqual(['IGNORED', 'APPLIED']);
    const after = await wallet();
    const rows = await eventRows((await holdOf(token)).id);
    const second = await postEvents(body, { id: 'msg_same' });
    expect(second.status).toBe(200);
    expect(outcomes(second)).toEqual(['IGNORED', 'ALREADY_APPLIED']);
    expect(await wallet()).toEqual(after);
    expect(await eventRows((await holdOf(token)).id)).toBe(rows);
    expect(await holdOf(token)).toMatchObject({ status: 'SETTLED', settledAmount: 1_200n, settlementCount: 1 });
  });

  it('concurrent deliveries of one update apply it once', async () => {
    const before = await wallet();
    // A partial clearing: applied twice, it would settle twice (nothing else would refuse it).
    const token = await approved(s.cardToken, 1_000);
    const body = transactionBody(token, s.cardToken, [{ type: 'CLEARING', amount: 700 }], 1_000);
    const answers = await Promise.all([postEvents(body), postEvents(body), postEvents(body), postEvents(body)]);
    for (const a of answers) expect(a.status).toBe(200);
    const applied = answers.map((a) => outcomes(a)[1]);
    expect(applied.filter((o) => o === 'APPLIED')).toHaveLength(1);
    expect(applied.filter((o) => o === 'ALREADY_APPLIED')).toHaveLength(3);
    expect(await holdOf(token)).toMatchObject({ status: 'PARTIALLY_SETTLED', settledAmount: 700n, openAmount: 300n });
    expect(await wallet()).toEqual({
      available: before.available - 1_000n,
      held: before.held + 300n,
      network: before.network + 700n,
    });
  });

  it('a cumulative update with one new event applies only the new one', async () => {
    const before = await wallet();
    const token = await approved(s.cardToken, 2_000);
    const first = [{ type: 'CLEARING', amount: 800 }];
    await postEvents(transactionBody(token, s.cardToken, first, 2_000));
    const mid = await wallet();
    expect(mid.network).toBe(before.network + 800n);
    const res = await postEvents(
      transactionBody(token, s.cardToken, [...first, { type: 'CLEARING', amount: 1_200 }], 2_000),
    );
    expect(outcomes(res)).toEqual(['IGNORED', 'ALREADY_APPLIED', 'APPLIED']);
    expect(await holdOf(token)).toMatchObject({ status: 'SETTLED', settledAmount: 2_000n, settlementCount: 2 });
    expect(await wallet()).toEqual(paidOut(before, 2_000n));
  });

  it('applies only APPROVED events', async () => {
    const before = await wallet();
    const token = await approved(s.cardToken, 300);
    const res = await postEvents(
      transactionBody(token, s.cardToken, [{ type: 'CLEARING', amount: 300, result: 'DECLINED' }], 300),
    );
    expect(res.body.events).toContainEqual(expect.objectContaining({ type: 'CLEARING', outcome: 'IGNORED' }));
    expect(await holdOf(token)).toMatchObject({ status: 'AUTHORIZED', openAmount: 300n });
    expect((await wallet()).held).toBe(before.held + 300n);
  });
});

describe('Lithic transaction events: what is refused, what is acknowledged', () => {
  it('refuses an unsigned, a badly signed, an ASA-signed and a stale body with 401, writing nothing', async () => {
    const token = await approved(s.cardToken, 400);
    const before = await wallet();
    const rows = await eventRows((await holdOf(token)).id);
    const body = transactionBody(token, s.cardToken, [{ type: 'CLEARING', amount: 400 }], 400);
    const unsigned = await eventsRoute(
      new Request('http://corridor.test/cards/lithic/events', { method: 'POST', body: JSON.stringify(body) }),
    );
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE' });
    const wrong = await postEvents(body, { secret: `whsec_${randomBytes(24).toString('base64')}` });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_SIGNATURE' } });
    // The ASA secret is not the event subscription's: Lithic signs each with its own.
    expect((await postEvents(body, { secret: ASA_SECRET })).status).toBe(401);
    expect((await postEvents(body, { timestamp: Math.floor(Date.now() / 1000) - 3_600 })).status).toBe(401);
    expect(await wallet()).toEqual(before);
    expect(await eventRows((await holdOf(token)).id)).toBe(rows);
    expect(await holdOf(token)).toMatchObject({ status: 'AUTHORIZED' });
  });

  it('acknowledges a transaction or card it does not know (Lithic would only retry it), and other event types', async () => {
    const before = await wallet();
    const unknown = await postEvents(transactionBody(randomUUID(), s.cardToken, [{ type: 'CLEARING', amount: 100 }]));
    expect(unknown).toMatchObject({ status: 200, body: { ignored: 'UNKNOWN_TRANSACTION', events: [] } });
    const noCard = await postEvents(transactionBody(randomUUID(), randomUUID(), [{ type: 'CLEARING', amount: 100 }]));
    expect(noCard).toMatchObject({ status: 200, body: { ignored: 'UNKNOWN_CARD' } });
    const other = await postEvents({ event_type: 'card.created', token: randomUUID() });
    expect(other).toMatchObject({ status: 200, body: { ignored: expect.stringContaining('card.created') } });
    expect(await wallet()).toEqual(before);
  });

  it('takes the Transaction object as an event payload too, and refuses bodies that are not one with 400', async () => {
    const token = await approved(s.cardToken, 250);
    const wrapped = {
      event_type: 'card_transaction.updated',
      token: `msg_${randomUUID()}`,
      payload: transactionBody(token, s.cardToken, [{ type: 'AUTHORIZATION_EXPIRY', amount: 250 }], 250),
    };
    expect(outcomes(await postEvents(wrapped))).toEqual(['IGNORED', 'APPLIED']);
    expect(await holdOf(token)).toMatchObject({ status: 'SETTLED', openAmount: 0n });
    expect((await postEvents('{"token": ')).status).toBe(400);
    expect((await postEvents({ token, card_token: s.cardToken })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    const badAmount = transactionBody(token, s.cardToken, [{ type: 'CLEARING' }]);
    badAmount.events[1].amount = '2.50' as unknown as number;
    expect((await postEvents(badAmount)).status).toBe(400);
  });

  it('answers 404 without a Lithic connection, or with ASA but no event subscription secret', async () => {
    const body = transactionBody(randomUUID(), s.cardToken, []);
    try {
      lithicAsa.set(null);
      expect(await postEvents(body)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: ASA_SECRET }));
      const res = await postEvents(body);
      expect(res).toMatchObject({
        status: 404,
        body: { message: expect.stringContaining('CORRIDOR_LITHIC_EVENTS_SECRET') },
      });
    } finally {
      lithicAsa.set(lithicAsaFromEnv(LITHIC_ENV));
    }
    // Events alone do nothing: they settle what ASA approved.
    expect(lithicAsaFromEnv({ CORRIDOR_LITHIC_EVENTS_SECRET: LITHIC_ENV.CORRIDOR_LITHIC_EVENTS_SECRET })).toBeNull();
  });

  it('says at start-up whether transaction events are connected', () => {
    const line = (env: Record<string, string>) =>
      adapterSummary(new Map(portsFor('production', env))).find((l) => l.startsWith('  card authorizations: '));
    expect(line(LITHIC_ENV)).toContain('/cards/lithic/events');
    expect(line({ CORRIDOR_LITHIC_ASA_SECRET: ASA_SECRET })).toMatch(
      /events NOT connected.*CORRIDOR_LITHIC_EVENTS_SECRET/,
    );
  });
});
