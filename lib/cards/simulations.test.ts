import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db } from '@/lib/core/db';
import * as ledger from '@/lib/ledger/service';
import { openCustomerAccounts } from '@/lib/accounts/service';
import { activeCard, cardholder, cardWebhooks, simulate } from './test-helpers';

// The ten sandbox card simulations, each checked for its ledger effect (available / held /
// pending of the funding account, and the card network's side) with the ledger invariant after
// every test, the card transaction as GET /transactions shows it, and the webhooks it sent.
const USD = { code: 'USD' };
const shop = (descriptor = 'BLUE BOTTLE COFFEE SF') => ({ descriptor, mcc: '5814', country: 'US' });

describe('card simulations', () => {
  let p: TestPlatform;
  let h: Holder;
  let card: { id: string };
  const acct = () => h.accounts.USD;

  async function buckets(id = acct()) {
    const b = (await ledger.balances([id])).get(id)!;
    return { available: b.available, held: b.held, pending: b.pending };
  }
  async function network() {
    const row = await db().ledgerAccount.findUnique({
      where: { id: ledger.systemAccount(p.platformId, 'WORLD:CARD', 'USD') },
    });
    return row?.balance ?? 0n;
  }
  /** The newest card transaction of the card, as the transaction list shows it. */
  async function latest(cardId = card.id) {
    const res = await p.api.get('/transactions', { query: { type: 'CARD', accountIdentifier: cardId, limit: 1 } });
    expect(res.status, res.text).toBe(200);
    return res.body.data[0];
  }
  async function get(id: string) {
    const res = await p.api.get(`/transactions/${id}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  }
  const authorize = async (amount: number, descriptor?: string, cardId = card.id) => {
    const token = await simulate(p, cardId, 'authorization', { amount, currency: USD, merchant: shop(descriptor) });
    return token;
  };
  const declines = async (token: string) =>
    db().cardEvent.findMany({ where: { issuerTransactionToken: token, outcome: 'DECLINED' } });

  beforeAll(async () => {
    p = await newPlatform();
    h = await cardholder(p, 'Sam Simulate');
    await fund(p, acct(), 100_000);
    card = await activeCard(p, h);
  });
  afterEach(async () => {
    await expectLedgerBalanced(p.platformId);
    await cardWebhooks(p.platformId);
  });

  it('authorization: holds the amount on the funding source; the transaction is AUTHORIZED', async () => {
    const before = await buckets();
    const token = await authorize(1250);
    expect(await buckets()).toEqual({ ...before, available: before.available - 1250n, held: before.held + 1250n });
    const t = await latest();
    expect(t).toMatchObject({
      type: 'CARD',
      cardId: card.id,
      customerId: h.customerId,
      issuerTransactionToken: token,
      status: 'AUTHORIZED',
      direction: 'DEBIT',
      merchant: shop(),
      authorizedAmount: { amount: 1250, currency: { code: 'USD' } },
      accountId: acct(),
      pullSummary: { count: 1, totalAmount: 1250, pendingCount: 0 },
      settlementSummary: { count: 0, totalAmount: 0 },
      refundSummary: { count: 0, totalAmount: 0 },
    });
    expect(await get(t.id)).toEqual(t);
    const hooks = (await cardWebhooks(p.platformId)).filter((e) => e.data.id === t.id);
    expect(hooks.map((e) => e.type)).toEqual(['CARD_TRANSACTION.AUTHORIZED']);
  });

  it('clearing: partial keeps the rest held (PARTIALLY_SETTLED); a 0 clearing then expires it (SETTLED)', async () => {
    await authorize(2000);
    const t = await latest();
    const before = await buckets();
    const net0 = await network();
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 1500 });
    expect(await buckets()).toEqual({ ...before, held: before.held - 1500n });
    expect(await network()).toBe(net0 + 1500n);
    expect(await get(t.id)).toMatchObject({
      status: 'PARTIALLY_SETTLED',
      settledAmount: { amount: 1500 },
      settlementSummary: { count: 1, totalAmount: 1500 },
    });
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 0 });
    expect(await buckets()).toEqual({ ...before, held: before.held - 2000n, available: before.available + 500n });
    expect(await get(t.id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 1500 } });
    const hooks = (await cardWebhooks(p.platformId)).filter((e) => e.data.id === t.id).map((e) => e.type);
    expect(hooks).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.PARTIALLY_SETTLED',
      'CARD_TRANSACTION.SETTLED',
    ]);
    // Nothing more clears against a closed authorization.
    expectError(
      await p.api.post(`/sandbox/cards/${card.id}/simulate/clearing`, { cardTransactionId: t.id, amount: 1 }),
      400,
      'INVALID_INPUT',
    );
  });

  it('clearing of 0 on a fresh authorization: expiry, the whole hold goes back', async () => {
    const before = await buckets();
    await authorize(700);
    const t = await latest();
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 0 });
    expect(await buckets()).toEqual(before);
    expect(await get(t.id)).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 0 } });
  });

  it('over-auth clearing: the hold settles and the difference is pulled after the fact', async () => {
    await authorize(1000);
    const t = await latest();
    const before = await buckets();
    const net0 = await network();
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 1200 });
    expect(await buckets()).toEqual({ ...before, held: before.held - 1000n, available: before.available - 200n });
    expect(await network()).toBe(net0 + 1200n);
    expect(await get(t.id)).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 1200 },
      pullSummary: { count: 2, totalAmount: 1200, pendingCount: 0 },
    });
  });

  it('return and return reversal: refunds to the funding source, then pulls the last return back', async () => {
    await authorize(3000);
    const t = await latest();
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 3000 });
    const before = await buckets();
    await simulate(p, card.id, 'return', { cardTransactionId: t.id, amount: 1000 });
    expect(await buckets()).toEqual({ ...before, available: before.available + 1000n });
    expect(await get(t.id)).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 1000 } });
    expectError(
      await p.api.post(`/sandbox/cards/${card.id}/simulate/return`, { cardTransactionId: t.id, amount: 2001 }),
      400,
      'INVALID_INPUT',
    );
    expectError(
      await p.api.post(`/sandbox/cards/${card.id}/simulate/return_reversal`, { cardTransactionId: t.id }),
      400,
      'INVALID_INPUT',
    );
    await simulate(p, card.id, 'return', { cardTransactionId: t.id, amount: 2000 });
    expect(await get(t.id)).toMatchObject({
      status: 'REFUNDED',
      refundedAmount: { amount: 3000 },
      refundSummary: { count: 2, totalAmount: 3000 },
    });
    expect(await buckets()).toEqual({ ...before, available: before.available + 3000n });
    await simulate(p, card.id, 'return_reversal', { cardTransactionId: t.id });
    expect(await buckets()).toEqual({ ...before, available: before.available + 1000n });
    expect(await get(t.id)).toMatchObject({ status: 'SETTLED', refundedAmount: { amount: 1000 } });
    const hooks = (await cardWebhooks(p.platformId)).filter((e) => e.data.id === t.id).map((e) => e.type);
    expect(hooks.slice(-3)).toEqual([
      'CARD_TRANSACTION.REFUNDED',
      'CARD_TRANSACTION.REFUNDED',
      'CARD_TRANSACTION.SETTLED',
    ]);
  });

  it('authorization advice re-sizes an open authorization up and down', async () => {
    await authorize(1000);
    const t = await latest();
    const before = await buckets();
    await simulate(p, card.id, 'authorization_advice', { cardTransactionId: t.id, amount: 2500 });
    expect(await buckets()).toEqual({ ...before, available: before.available - 1500n, held: before.held + 1500n });
    expect(await get(t.id)).toMatchObject({ authorizedAmount: { amount: 2500 }, pullSummary: { count: 2 } });
    await simulate(p, card.id, 'authorization_advice', { cardTransactionId: t.id, amount: 400 });
    expect(await buckets()).toEqual({ ...before, available: before.available + 600n, held: before.held - 600n });
    expect(await get(t.id)).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: { amount: 400 } });
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 400 });
    expect((await get(t.id)).status).toBe('SETTLED');
  });

  it('balance inquiry: a 0-amount authorization, recorded, with no ledger effect', async () => {
    const before = await buckets();
    const token = await simulate(p, card.id, 'balance_inquiry', { merchant: shop('SHELL OIL 12345678') });
    expect(await buckets()).toEqual(before);
    const ev = await db().cardEvent.findFirstOrThrow({ where: { issuerTransactionToken: token } });
    expect(ev).toMatchObject({ kind: 'BALANCE_INQUIRY', outcome: 'APPROVED', amount: 0n });
    expect(ev.details).toMatchObject({ availableBalance: before.available.toString() });
  });

  it('credit authorization waits as pending and clears into the available balance', async () => {
    const before = await buckets();
    await simulate(p, card.id, 'credit_authorization', {
      amount: 2500,
      currency: USD,
      merchant: shop('ACME MARKETPLACE'),
    });
    expect(await buckets()).toEqual({ ...before, pending: before.pending + 2500n });
    const t = await latest();
    expect(t).toMatchObject({ direction: 'CREDIT', status: 'AUTHORIZED', pullSummary: { count: 0 } });
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 2500 });
    expect(await buckets()).toEqual({ ...before, available: before.available + 2500n });
    expect((await get(t.id)).status).toBe('SETTLED');
    expectError(
      await p.api.post(`/sandbox/cards/${card.id}/simulate/return`, { cardTransactionId: t.id, amount: 1 }),
      400,
      'INVALID_INPUT',
    );
  });

  it('credit authorization advice: a network-initiated credit, pending until it clears', async () => {
    const before = await buckets();
    await simulate(p, card.id, 'credit_authorization_advice', { amount: 900, currency: USD, merchant: shop('ACME') });
    expect(await buckets()).toEqual({ ...before, pending: before.pending + 900n });
    const t = await latest();
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 0 });
    expect(await buckets()).toEqual(before);
  });

  it('financial authorization: a single message that authorizes and clears at once', async () => {
    const before = await buckets();
    const net0 = await network();
    await simulate(p, card.id, 'financial_authorization', {
      amount: 8000,
      currency: USD,
      merchant: shop('ATM WITHDRAWAL 24TH ST'),
    });
    expect(await buckets()).toEqual({ ...before, available: before.available - 8000n });
    expect(await network()).toBe(net0 + 8000n);
    const t = await latest();
    expect(t).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 8000 }, settlementSummary: { count: 1 } });
  });

  it('financial credit authorization: a single-message credit, settled at once', async () => {
    const before = await buckets();
    await simulate(p, card.id, 'financial_credit_authorization', {
      amount: 4000,
      currency: USD,
      merchant: shop('ACME PAYOUTS'),
    });
    expect(await buckets()).toEqual({ ...before, available: before.available + 4000n });
    expect(await latest()).toMatchObject({ direction: 'CREDIT', status: 'SETTLED', settledAmount: { amount: 4000 } });
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

  it('delayed pull (005): the pull stays pending about 30 s, then is confirmed by a job', async () => {
    await authorize(600, 'SLOW NETWORK 005');
    const t = await latest();
    expect(t.pullSummary).toEqual({ count: 1, totalAmount: 600, pendingCount: 1 });
    await advance(p, 20);
    expect((await get(t.id)).pullSummary.pendingCount).toBe(1);
    await advance(p, 15);
    expect((await get(t.id)).pullSummary).toEqual({ count: 1, totalAmount: 600, pendingCount: 0 });
    expect((await get(t.id)).status).toBe('AUTHORIZED');
    await simulate(p, card.id, 'clearing', { cardTransactionId: t.id, amount: 600 });
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
});
