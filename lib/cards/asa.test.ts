import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST as asaRoute } from '@/app/cards/lithic/asa/route';
import { db, transaction } from '@/lib/core/db';
import { portsFor } from '@/lib/wiring';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { balanceOf, fund, type Holder } from '@/tests/support/money';
import { lithicAsa, lithicAsaFromEnv, lithicSignature, secretBytes } from './lithic';
import { switchMode } from '@/tests/support/mode';
import { activeCard, cardholder, cardWebhooks } from './testing';

// Lithic's Auth Stream Access against Corridor's responder route: Lithic-shaped authorization
// requests, signed as Lithic signs them, answered approve/decline from the card's state, funding
// balance and limits, with the CardTransaction recorded and the amount held (docs/cards.md).
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const ROTATED = `whsec_${randomBytes(24).toString('base64')}`;

let p: TestPlatform;
let h: Holder;
let card: { id: string };
let cardToken: string;
beforeAll(async () => {
  lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: `${SECRET},${ROTATED}` }));
  p = await newPlatform();
  h = await cardholder(p, 'Lena Lithic');
  await fund(p, h.accounts.USD, 10_000);
  card = await activeCard(p, h, { maxSpendPerTransaction: 50_000 });
  // The processor's token for the card: what Lithic names it by in every request.
  cardToken = (await db().card.findUniqueOrThrow({ where: { id: card.id } })).processorRef!;
});
afterAll(() => lithicAsa.set(null));
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});

/** An ASA request body as Lithic documents it (the fields Corridor reads, and some it does not). */
function asaBody(o: { token?: string; amount: number; status?: string; descriptor?: string; card?: string }) {
  return {
    token: o.token ?? randomUUID(),
    card_token: o.card ?? cardToken,
    status: o.status ?? 'AUTHORIZATION',
    amount: o.amount,
    acquirer_fee: 0,
    authorization_amount: o.amount,
    merchant_amount: o.amount,
    merchant_currency: 'USD',
    cardholder_currency: 'USD',
    settled_amount: 0,
    created: new Date().toISOString(),
    merchant: {
      acceptor_id: '174030075991',
      city: 'NEW YORK',
      country: 'USA',
      descriptor: o.descriptor ?? 'COFFEE SHOP 12',
      mcc: '5814',
      state: 'NY',
    },
    network: 'VISA',
    avs: { address: '123 MAIN ST', zipcode: '10001' },
    pos: { entry_mode: { card: 'NOT_PRESENT', cardholder: 'NOT_PRESENT', pan: 'ECOMMERCE', pin_entered: false } },
  };
}

async function post(body: unknown, o: { secret?: string; timestamp?: number; id?: string } = {}) {
  const text = JSON.stringify(body);
  const id = o.id ?? `msg_${randomUUID()}`;
  const ts = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const res = await asaRoute(
    new Request('http://corridor.test/cards/lithic/asa', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': ts,
        'webhook-signature': lithicSignature(secretBytes(o.secret ?? SECRET), id, ts, text),
      },
      body: text,
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const available = async () => (await balanceOf(p, h.accounts.USD)).available;
const holdsOf = (token: string) => db().cardTransaction.findMany({ where: { issuerTransactionToken: token } });

describe('Lithic ASA decisions', () => {
  it('approves within the balance and limit: records the card transaction and holds the amount', async () => {
    const before = await available();
    const body = asaBody({ amount: 1_250 });
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'APPROVED', token: body.token });
    const [t] = await holdsOf(body.token);
    expect(t).toMatchObject({ cardId: card.id, status: 'AUTHORIZED', authorizedAmount: 1_250n, direction: 'DEBIT' });
    expect(t.merchant).toMatchObject({ descriptor: 'COFFEE SHOP 12', mcc: '5814', country: 'USA' });
    expect(await available()).toBe(before - 1_250n);
    const hooks = await cardWebhooks(p.platformId);
    expect(JSON.stringify(hooks)).toContain(t.id);
  });

  it('declines what the funding balance does not cover: nothing held', async () => {
    const before = await available();
    const body = asaBody({ amount: Number(before) + 1 });
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'INSUFFICIENT_FUNDS', token: body.token });
    expect(await holdsOf(body.token)).toHaveLength(0);
    const event = await db().cardEvent.findFirstOrThrow({ where: { issuerTransactionToken: body.token } });
    expect(event).toMatchObject({ outcome: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' });
    expect(await available()).toBe(before);
  });

  it('declines over the per-transaction limit (VELOCITY_EXCEEDED), and a sandbox magic descriptor decides nothing', async () => {
    const over = asaBody({ amount: 50_001 });
    expect((await post(over)).body).toMatchObject({
      result: 'VELOCITY_EXCEEDED',
      reason: 'EXCEEDS_MAX_SPEND_PER_TRANSACTION',
    });
    // "...002" is the sandbox simulation's insufficient-funds value; a processor's request is
    // decided on the records alone.
    const magic = asaBody({ amount: 100, descriptor: 'SHOP 002' });
    expect((await post(magic)).body).toEqual({ result: 'APPROVED', token: magic.token });
  });

  it('declines on a frozen card (CARD_PAUSED) and approves again once it is unfrozen', async () => {
    expect((await p.api.patch(`/cards/${card.id}`, { state: 'FROZEN' })).status).toBe(200);
    try {
      const body = asaBody({ amount: 100 });
      expect((await post(body)).body).toMatchObject({ result: 'CARD_PAUSED', token: body.token });
      expect(await holdsOf(body.token)).toHaveLength(0);
    } finally {
      expect((await p.api.patch(`/cards/${card.id}`, { state: 'ACTIVE' })).status).toBe(200);
    }
    const again = asaBody({ amount: 100 });
    expect((await post(again)).body.result).toBe('APPROVED');
  });

  it('the same request twice (and at once) makes one hold and the same answer', async () => {
    const before = await available();
    const body = asaBody({ amount: 700 });
    const answers = await Promise.all([post(body), post(body), post(body, { id: 'msg_retry' })]);
    for (const a of answers) expect(a.body).toEqual({ result: 'APPROVED', token: body.token });
    expect(await holdsOf(body.token)).toHaveLength(1);
    // One decision (the hold's pull confirmation is a second event of another kind).
    expect(await db().cardEvent.count({ where: { issuerTransactionToken: body.token, kind: 'AUTHORIZATION' } })).toBe(
      1,
    );
    expect(await available()).toBe(before - 700n);
    // A declined one repeated stays declined, without a second record.
    const big = asaBody({ amount: 4_000 + Number(before) });
    expect((await post(big)).body.result).not.toBe('APPROVED');
    expect((await post(big)).body.result).not.toBe('APPROVED');
    expect(await db().cardEvent.count({ where: { issuerTransactionToken: big.token } })).toBe(1);
  });
});

describe('Lithic ASA: other requests, other instances', () => {
  it('answers a balance inquiry with the available balance, holding nothing', async () => {
    const before = await available();
    const body = asaBody({ amount: 0, status: 'BALANCE_INQUIRY' });
    const res = await post(body);
    expect(res.body).toEqual({
      result: 'APPROVED',
      token: body.token,
      balance: { amount: Number(before), available: Number(before) },
    });
    expect(await available()).toBe(before);
  });

  it('decides in a production instance too: no sandbox processor is asked', async () => {
    switchMode('production');
    try {
      lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: SECRET }));
      const before = await available();
      const body = asaBody({ amount: 300 });
      expect((await post(body)).body).toEqual({ result: 'APPROVED', token: body.token });
      expect(await holdsOf(body.token)).toHaveLength(1);
      expect(await available()).toBe(before - 300n);
    } finally {
      lithicAsa.set(null);
      switchMode('sandbox');
    }
  });

  it('declines a card it does not know, and refuses requests that are not Lithic authorization requests', async () => {
    const unknown = asaBody({ amount: 100, card: randomUUID() });
    expect((await post(unknown)).body).toMatchObject({ result: 'CARD_PAUSED', reason: 'UNKNOWN_CARD' });
    expect((await post({ ...asaBody({ amount: 100 }), status: 'CLEARING' })).status).toBe(400);
    expect((await post({ ...asaBody({ amount: 100 }), amount: '1.00' })).status).toBe(400);
  });
});

describe('Lithic ASA signatures', () => {
  it('refuses a bad signature, a wrong secret and a stale timestamp: no decision, nothing held', async () => {
    const before = await available();
    const body = asaBody({ amount: 100 });
    const text = JSON.stringify(body);
    const ts = String(Math.floor(Date.now() / 1000));
    const tampered = await asaRoute(
      new Request('http://corridor.test/cards/lithic/asa', {
        method: 'POST',
        headers: {
          'webhook-id': 'msg_1',
          'webhook-timestamp': ts,
          // Signed over another body (the amount changed in transit).
          'webhook-signature': lithicSignature(
            secretBytes(SECRET),
            'msg_1',
            ts,
            text.replace('"amount":100', '"amount":1'),
          ),
        },
        body: text,
      }),
    );
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE' });
    const wrong = await post(body, { secret: `whsec_${randomBytes(24).toString('base64')}` });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_SIGNATURE' } });
    const stale = await post(body, { timestamp: Math.floor(Date.now() / 1000) - 3_600 });
    expect(stale).toMatchObject({ status: 401, body: { code: 'INVALID_SIGNATURE' } });
    const unsigned = await asaRoute(
      new Request('http://corridor.test/cards/lithic/asa', { method: 'POST', body: text }),
    );
    expect(unsigned.status).toBe(401);
    expect(await db().cardEvent.count({ where: { issuerTransactionToken: body.token } })).toBe(0);
    expect(await available()).toBe(before);
  });

  it('takes the previous secret during a rotation', async () => {
    const body = asaBody({ amount: 100 });
    expect((await post(body, { secret: ROTATED })).body).toEqual({ result: 'APPROVED', token: body.token });
  });

  it('is wired from CORRIDOR_LITHIC_ASA_SECRET; without it the route answers 404 and decides nothing', async () => {
    expect(new Map(portsFor('production', {})).get(lithicAsa.name)).toBeNull();
    const wired = new Map(portsFor('production', { CORRIDOR_LITHIC_ASA_SECRET: SECRET })).get(lithicAsa.name);
    expect(wired).toMatchObject({ deadlineMs: 2_000 });
    lithicAsa.set(null);
    try {
      const body = asaBody({ amount: 100 });
      expect((await post(body)).status).toBe(404);
      expect(await db().cardEvent.count({ where: { issuerTransactionToken: body.token } })).toBe(0);
    } finally {
      lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: SECRET }));
    }
  });

  it('a decision not ready by the deadline is declined and leaves nothing behind', async () => {
    lithicAsa.set({ ...lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: SECRET })!, deadlineMs: 1 });
    try {
      const before = await available();
      const body = asaBody({ amount: 100 });
      expect((await post(body)).body).toMatchObject({ result: 'INSUFFICIENT_FUNDS', reason: 'DEADLINE_EXCEEDED' });
      expect(await holdsOf(body.token)).toHaveLength(0);
      expect(await db().cardEvent.count({ where: { issuerTransactionToken: body.token } })).toBe(0);
      expect(await available()).toBe(before);
    } finally {
      lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: SECRET }));
    }
  });
});

it('answers a decline by its deadline while the card is locked by other work, and nothing of it is held after', async () => {
  lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: SECRET, CORRIDOR_LITHIC_ASA_DEADLINE_MS: '400' }));
  try {
    const before = await available();
    const body = asaBody({ amount: 200 });
    let release!: () => void;
    const locked = new Promise<void>((r) => (release = r));
    // Another transaction holds the card's row (on the embedded database: its only connection).
    const holder = transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "Card" WHERE "id" = ${card.id} FOR UPDATE`;
      await locked;
    });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const answer = await post(body);
    const took = Date.now() - started;
    release();
    await holder;
    expect(answer).toMatchObject({
      status: 200,
      body: { result: 'INSUFFICIENT_FUNDS', token: body.token, reason: 'DEADLINE_EXCEEDED' },
    });
    expect(took).toBeLessThan(1_500); // the deadline, not the lock holder, decided when it answered
    // The abandoned decision, free to run now, rolls back: no hold, no card transaction.
    await new Promise((r) => setTimeout(r, 300));
    expect(await holdsOf(body.token)).toHaveLength(0);
    expect(await available()).toBe(before);
  } finally {
    lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: `${SECRET},${ROTATED}` }));
  }
});
