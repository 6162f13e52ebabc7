import { beforeAll, expect, it } from 'vitest';
import { expectError, type TestPlatform } from '@/tests/support/api';
import type { Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { cardWebhooks, simulate } from './testing';
import { shop, simulationKit, USD } from './simulation-kit';

// The ten sandbox card simulations, each checked for its ledger effect (available / held /
// pending of the funding account, and the card network's side) with the ledger invariant after
// every test, the card transaction as GET /transactions shows it, and the webhooks it sent.
let p: TestPlatform;
let h: Holder;
let card: { id: string };
const k = simulationKit('Sam Simulate');
const { buckets, network, latest, get, authorize } = k;
const acct = () => h.accounts.USD;
beforeAll(() => {
  ({ p, h, card } = k.s);
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
