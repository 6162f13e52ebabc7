import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import type { Holder } from '@/tests/support/money';
import { activeCard, cardholder, cardWebhooks } from './testing';

// The card state machine over HTTP: every move allowed and refused, and concurrent moves.
let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  h = await cardholder(p, 'Stella State');
});

/** A card in `state`, reached through the API. */
async function cardIn(state: 'PROCESSING' | 'ACTIVE' | 'FROZEN' | 'CLOSED') {
  if (state === 'PROCESSING') {
    const res = await p.api.post('/cards', {
      cardholderId: h.customerId,
      form: 'VIRTUAL',
      fundingSources: [h.accounts.USD],
    });
    return res.body.id as string;
  }
  const card = await activeCard(p, h);
  if (state !== 'ACTIVE') expect((await p.api.patch(`/cards/${card.id}`, { state })).status).toBe(200);
  return card.id;
}

const cases: [string, string, number, string | null][] = [
  ['ACTIVE', 'FROZEN', 200, null],
  ['ACTIVE', 'CLOSED', 200, null],
  ['ACTIVE', 'ACTIVE', 409, 'INVALID_STATE_TRANSITION'],
  ['FROZEN', 'ACTIVE', 200, null],
  ['FROZEN', 'CLOSED', 200, null],
  ['FROZEN', 'FROZEN', 409, 'INVALID_STATE_TRANSITION'],
  ['CLOSED', 'CLOSED', 409, 'CARD_ALREADY_CLOSED'],
  ['CLOSED', 'ACTIVE', 409, 'INVALID_STATE_TRANSITION'],
  ['CLOSED', 'FROZEN', 409, 'INVALID_STATE_TRANSITION'],
  ['PROCESSING', 'ACTIVE', 409, 'INVALID_STATE_TRANSITION'],
  ['PROCESSING', 'FROZEN', 409, 'INVALID_STATE_TRANSITION'],
  ['PROCESSING', 'CLOSED', 409, 'INVALID_STATE_TRANSITION'],
];
for (const [from, to, status, code] of cases) {
  it(`${from} → ${to}: ${code ?? 'allowed'}`, async () => {
    const id = await cardIn(from as 'ACTIVE');
    const res = await p.api.patch(`/cards/${id}`, { state: to });
    if (code) {
      expectError(res, status, code);
      expect((await p.api.get(`/cards/${id}`)).body.state).toBe(from);
    } else {
      expect(res.status, res.text).toBe(200);
      expect(res.body.state).toBe(to);
      expect(res.body.stateReason).toBe(to === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null);
      const hooks = (await cardWebhooks(p.platformId)).filter((e) => e.data.id === id);
      expect(hooks.at(-1)).toMatchObject({ type: 'CARD.STATE_CHANGE', data: { state: to } });
    }
  });
}

it('refuses any other change of a CLOSED card with CARD_NOT_MUTABLE', async () => {
  const id = await cardIn('CLOSED');
  expectError(await p.api.patch(`/cards/${id}`, { fundingSources: [h.accounts.USD] }), 409, 'CARD_NOT_MUTABLE');
  expectError(await p.api.patch(`/cards/${id}`, { maxSpendPerTransaction: 100 }), 409, 'CARD_NOT_MUTABLE');
  expectError(await p.api.patch(`/cards/${id}`, { maxSpendPerTransaction: null }), 409, 'CARD_NOT_MUTABLE');
});

it('applies one of several concurrent moves: the others are refused by the guarded update', async () => {
  const id = await cardIn('ACTIVE');
  const freezes = await Promise.all([1, 2, 3, 4, 5].map(() => p.api.patch(`/cards/${id}`, { state: 'FROZEN' })));
  expect(freezes.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of freezes.filter((x) => x.status !== 200)) expectError(r, 409, 'INVALID_STATE_TRANSITION');
  const mixed = await Promise.all([
    p.api.patch(`/cards/${id}`, { state: 'CLOSED' }),
    p.api.patch(`/cards/${id}`, { state: 'ACTIVE' }),
    p.api.patch(`/cards/${id}`, { state: 'CLOSED' }),
    p.api.patch(`/cards/${id}`, { state: 'CLOSED' }),
  ]);
  const closes = mixed.filter((r, i) => i !== 1);
  expect(closes.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of closes.filter((x) => x.status !== 200)) expectError(r, 409, 'CARD_ALREADY_CLOSED');
  expect((await p.api.get(`/cards/${id}`)).body.state).toBe('CLOSED');
  const changes = (await cardWebhooks(p.platformId)).filter((e) => e.data.id === id && e.type === 'CARD.STATE_CHANGE');
  // ACTIVE (provisioned), FROZEN, then at most one unfreeze, then CLOSED: one event per move made.
  const states = changes.map((e) => e.data.state);
  expect(states.slice(0, 2)).toEqual(['ACTIVE', 'FROZEN']);
  expect(states.at(-1)).toBe('CLOSED');
  expect(states.filter((s) => s === 'CLOSED')).toHaveLength(1);
});
