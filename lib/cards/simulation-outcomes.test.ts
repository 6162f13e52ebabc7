import { beforeAll, expect, it } from 'vitest';
import { expectError, type TestPlatform } from '@/tests/support/api';
import { advance, fund, type Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import * as ledger from '@/lib/ledger/service';
import { openCustomerAccounts } from '@/lib/accounts/service';
import { freezeClock } from '@/lib/sandbox/clock';
import { activeCard, cardholder, cardWebhooks, simulate } from './testing';
import { shop, simulationKit, USD } from './simulation-kit';

// Sandbox card outcomes: declines (descriptor suffixes 002 and 003, frozen and closed cards, the
// per-transaction limit, no funds), the delayed pull (005) and failed pull confirmation (006),
// clearings the funding source cannot cover, funding sources tried in order, closing a card
// with open authorizations, and the 404 / 400 answers; the ledger invariant after every test.
let p: TestPlatform;
let h: Holder;
let card: { id: string };
const k = simulationKit('Olivia Outcome');
const { buckets, latest, get, authorize, declines } = k;
beforeAll(() => {
  ({ p, h, card } = k.s);
});

it('declines by descriptor suffix (002, 003), frozen state and maxSpendPerTransaction: nothing moves', async () => {
  const before = await buckets();
  const count = async () => (await p.api.get('/transactions', { query: { type: 'CARD' } })).body.totalCount;
  const n = await count();
  expect((await declines(await authorize(100, 'AMAZON RETAIL US-002')))[0].declineReason).toBe('INSUFFICIENT_FUNDS');
  expect((await declines(await authorize(100, 'AMAZON RETAIL US-003')))[0].declineReason).toBe('CARD_PAUSED');
  expect((await declines(await authorize(10_000_000)))[0].declineReason).toBe('INSUFFICIENT_FUNDS');
  await p.api.patch(`/cards/${card.id}`, { state: 'FROZEN' });
  expect((await declines(await authorize(100)))[0].declineReason).toBe('CARD_PAUSED');
  await p.api.patch(`/cards/${card.id}`, { state: 'ACTIVE', maxSpendPerTransaction: 500 });
  expect((await declines(await authorize(501)))[0].declineReason).toBe('EXCEEDS_MAX_SPEND_PER_TRANSACTION');
  expect(await count()).toBe(n);
  expect(await buckets()).toEqual(before);
  // A transaction for exactly the limit is allowed (reference).
  await authorize(500);
  expect(await count()).toBe(n + 1);
  await p.api.patch(`/cards/${card.id}`, { maxSpendPerTransaction: null });
  await simulate(p, card.id, 'clearing', { cardTransactionId: (await latest()).id, amount: 500 });
});

it('delayed pull (005): the pull stays pending 30 s, then is confirmed by a job', async () => {
  // Frozen, the clock moves only when advanced: the delay's boundary holds to the second.
  await freezeClock(p.platformId);
  try {
    await authorize(600, 'SLOW NETWORK 005');
    const t = await latest();
    expect(t.pullSummary).toEqual({ count: 1, totalAmount: 600, pendingCount: 1 });
    await advance(p, 29);
    expect((await get(t.id)).pullSummary.pendingCount).toBe(1);
    await advance(p, 1);
    expect((await get(t.id)).pullSummary).toEqual({ count: 1, totalAmount: 600, pendingCount: 0 });
    expect((await get(t.id)).status).toBe('AUTHORIZED');
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 600 });
  } finally {
    await freezeClock(p.platformId, false);
  }
});

it('pull confirmation fails (006): the hold is released and the transaction goes to EXCEPTION', async () => {
  const before = await buckets();
  await authorize(900, 'FLAKY PULL 006');
  const t = await latest();
  expect(await buckets()).toEqual(before);
  expect(t).toMatchObject({ status: 'EXCEPTION', pullSummary: { pendingCount: 0 } });
  const hooks = (await cardWebhooks(p.platformId)).filter((e) => e.data.id === t.id).map((e) => e.type);
  expect(hooks).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.EXCEPTION']);
});

it('over-auth clearing the funding source cannot cover: the network is paid, the transaction is EXCEPTION', async () => {
  const poor = await cardholder(p, 'Penny Poor');
  await fund(p, poor.accounts.USD, 1000);
  const c = await activeCard(p, poor);
  await authorize(1000, undefined, c.id);
  const t = await latest(c.id);
  await simulate(p, c.id, 'clearing', { cardTransactionId: t.id, amount: 1500 });
  expect(await buckets(poor.accounts.USD)).toEqual({ available: 0n, held: 0n, pending: 0n });
  const receivable = await db().ledgerAccount.findUnique({
    where: { id: ledger.systemAccount(p.platformId, 'CARD_RECEIVABLE', 'USD') },
  });
  expect(receivable?.balance).toBe(-500n);
  expect(await get(t.id)).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 1500 } });
});

it('tries funding sources in priority order', async () => {
  const holder = await cardholder(p, 'Polly Priority');
  const [second] = await db().$transaction((tx) =>
    openCustomerAccounts(p.platformId, holder.customerId, ['USD'], null, tx),
  );
  await fund(p, holder.accounts.USD, 300);
  await fund(p, second.id, 5000);
  const c = await activeCard(p, holder, { fundingSources: [holder.accounts.USD, second.id] });
  await authorize(200, undefined, c.id);
  expect((await latest(c.id)).accountId).toBe(holder.accounts.USD);
  await authorize(1000, undefined, c.id);
  expect((await latest(c.id)).accountId).toBe(second.id);
  expect(await buckets(second.id)).toEqual({ available: 4000n, held: 1000n, pending: 0n });
});

it('closing a card expires its open authorizations; later events still reconcile', async () => {
  const c = await activeCard(p, h);
  await authorize(1100, undefined, c.id);
  const t = await latest(c.id);
  const before = await buckets();
  expect((await p.api.patch(`/cards/${c.id}`, { state: 'CLOSED' })).status).toBe(200);
  expect(await buckets()).toEqual({ ...before, available: before.available + 1100n, held: before.held - 1100n });
  expect((await get(t.id)).status).toBe('SETTLED');
  const token = await authorize(100, undefined, c.id);
  expect((await declines(token))[0].declineReason).toBe('CARD_CLOSED');
});

it('answers 404 for unknown cards and card transactions, 400 for bad input', async () => {
  const nowhere = 'Card:00000000-0000-0000-0000-000000000000';
  expectError(
    await p.api.post(`/sandbox/cards/${nowhere}/simulate/authorization`, {
      amount: 1,
      currency: USD,
      merchant: shop(),
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await p.api.post(`/sandbox/cards/${card.id}/simulate/clearing`, {
      cardTransactionId: 'CardTransaction:00000000-0000-0000-0000-000000000000',
      amount: 1,
    }),
    404,
    'TRANSACTION_NOT_FOUND',
  );
  expectError(
    await p.api.post(`/sandbox/cards/${card.id}/simulate/authorization`, {
      amount: 0,
      currency: USD,
      merchant: shop(),
    }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.post(`/sandbox/cards/${card.id}/simulate/authorization`, {
      amount: 10,
      currency: { code: 'EUR' },
      merchant: shop(),
    }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.post(`/sandbox/cards/${card.id}/simulate/balance_inquiry`, { merchant: {} }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.get('/transactions/CardTransaction:00000000-0000-0000-0000-000000000000'),
    404,
    'TRANSACTION_NOT_FOUND',
  );
});
