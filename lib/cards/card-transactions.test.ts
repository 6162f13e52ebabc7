import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import * as ledger from '@/lib/ledger/service';
import { activeCard, cardholder, simulate } from './testing';
import { switchMode } from '@/tests/support/mode';
import { db } from '@/lib/core/db';

// Card transactions beside payment transactions in GET /transactions (one cursor over both),
// Idempotency-Key on simulations, concurrent authorizations against one balance, and the
// production answers (no card issuer: 501; sandbox simulations: 403).
const USD = { code: 'USD' };
const merchant = { descriptor: 'CORNER STORE', mcc: '5411', country: 'US' };

let p: TestPlatform;
let h: Holder;
let card: { id: string };
beforeAll(async () => {
  p = await newPlatform();
  h = await cardholder(p, 'Tina Transactions');
  await fund(p, h.accounts.USD, 50_000);
  card = await activeCard(p, h);
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
  switchMode('sandbox');
});

it('pages through payments and card transactions together, newest first, with filters', async () => {
  const ext = await externalAccount(p, h.customerId, 'USD', '000');
  const made: string[] = [];
  for (let i = 0; i < 3; i++) {
    await simulate(p, card.id, 'authorization', { amount: 100 + i, currency: USD, merchant });
    const out = await p.api.post('/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: ext },
      amount: 10 + i,
    });
    expect(out.status, out.text).toBe(201);
  }
  const all = await p.api.get('/transactions', { query: { limit: 100 } });
  expect(all.body.totalCount).toBe(6);
  for (const t of all.body.data) made.push(t.id);
  expect(all.body.data.map((t: { type: string }) => t.type)).toEqual([
    'OUTGOING',
    'CARD',
    'OUTGOING',
    'CARD',
    'OUTGOING',
    'CARD',
  ]);
  for (const order of ['desc', 'asc'] as const) {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await p.api.get('/transactions', { query: { limit: 4, cursor, sortOrder: order } });
      expect(page.status, page.text).toBe(200);
      expect(page.body.totalCount).toBe(6);
      seen.push(...page.body.data.map((t: { id: string }) => t.id));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
    } while (cursor);
    expect(seen).toEqual(order === 'desc' ? made : made.slice().reverse());
  }
  const cards = await p.api.get('/transactions', { query: { type: 'CARD', status: 'AUTHORIZED' } });
  expect(cards.body.data).toHaveLength(3);
  const outgoing = await p.api.get('/transactions', { query: { type: 'OUTGOING' } });
  expect(outgoing.body.data.every((t: { type: string }) => t.type === 'OUTGOING')).toBe(true);
  const byCustomer = await p.api.get('/transactions', { query: { customerId: h.customerId } });
  expect(byCustomer.body.totalCount).toBe(6);
  const bySender = await p.api.get('/transactions', { query: { senderAccountIdentifier: h.accounts.USD } });
  expect(bySender.body.totalCount).toBe(6);
  const platformOnly = await p.api.get('/transactions', { query: { customerId: p.platformId } });
  expect(platformOnly.body.data.some((t: { type: string }) => t.type === 'CARD')).toBe(false);
});

it('replays a simulation sent again with the same Idempotency-Key: one authorization', async () => {
  const before = (await ledger.balances([h.accounts.USD], db())).get(h.accounts.USD)!;
  const send = () =>
    p.api.post(
      `/sandbox/cards/${card.id}/simulate/authorization`,
      { amount: 321, currency: USD, merchant },
      { headers: { 'idempotency-key': 'card-auth-once' } },
    );
  const first = await send();
  const second = await send();
  expect(first.status).toBe(202);
  expect(second.status).toBe(202);
  expect(second.body).toEqual(first.body);
  expect(second.headers.get('idempotent-replayed')).toBe('true');
  const after = (await ledger.balances([h.accounts.USD], db())).get(h.accounts.USD)!;
  expect(after.held - before.held).toBe(321n);
});

it('issues one card for requests repeated with the same Idempotency-Key', async () => {
  const body = { cardholderId: h.customerId, form: 'VIRTUAL', fundingSources: [h.accounts.USD] };
  const headers = { 'idempotency-key': 'issue-card-once' };
  const first = await p.api.post('/cards', body, { headers });
  const again = await p.api.post('/cards', body, { headers });
  expect(first.status, first.text).toBe(201);
  expect(again.status).toBe(201);
  expect(again.body.id).toBe(first.body.id);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  const other = await p.api.post('/cards', { ...body, maxSpendPerTransaction: 5 }, { headers });
  expectError(other, 400, 'INVALID_INPUT');
});

it('never overdraws the funding source under concurrent authorizations', async () => {
  const holder = await cardholder(p, 'Connie Current');
  await fund(p, holder.accounts.USD, 1000);
  const c = await activeCard(p, holder);
  const results = await Promise.all(
    Array.from({ length: 6 }, () =>
      p.api.post(`/sandbox/cards/${c.id}/simulate/authorization`, { amount: 300, currency: USD, merchant }),
    ),
  );
  expect(results.every((r) => r.status === 202)).toBe(true);
  const b = (await ledger.balances([holder.accounts.USD], db())).get(holder.accounts.USD)!;
  expect(b).toEqual({ available: 100n, held: 900n, pending: 0n });
  const list = await p.api.get('/transactions', { query: { type: 'CARD', accountIdentifier: c.id } });
  expect(list.body.totalCount).toBe(3);
});

it('outside sandbox: no card issuer (501) and no simulations (403)', async () => {
  switchMode('production');
  const res = await p.api.post('/cards', {
    cardholderId: h.customerId,
    form: 'VIRTUAL',
    fundingSources: [h.accounts.USD],
  });
  expectError(res, 501, 'NOT_IMPLEMENTED');
  expectError(
    await p.api.post(`/sandbox/cards/${card.id}/simulate/authorization`, { amount: 1, currency: USD, merchant }),
    403,
    'FORBIDDEN',
  );
});
