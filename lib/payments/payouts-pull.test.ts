import { afterEach, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { freezeClock } from '@/lib/sandbox/clock';
import { advance, balanceOf, customerWithAccounts, externalAccount, txn, type Holder } from '@/tests/support/money';

// A quote whose source is the customer's external USD bank account is funded by direct pull (ACH
// debit), as the reference allows (immediatelyExecute "for sources that support direct pull").
// The source account's suffix decides the pull as for /transfer-in: 002/003 refused at once,
// 004 rejected when it settles, 005 pending about 30 s then failed. The platform's clock is
// frozen (it moves only when advanced), so delays hold to the second.
let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  await freezeClock(p.platformId);
  h = await customerWithAccounts(p, 'Pull Sender', ['USD', 'EUR']);
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});

const quoteBody = (source: string, destination: string, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: source },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10000,
  ...extra,
});
const eventTypes = async (id: string) =>
  (await eventsOf(p.platformId)).filter((e) => (e.body.data as { id?: string }).id === id).map((e) => e.type);

it('pulls from the bank account and pays out, without touching any internal balance', async () => {
  const bank = await externalAccount(p, h.customerId, 'USD', '0101');
  const dest = await externalAccount(p, h.customerId, 'EUR', '0102');
  const usdBefore = await balanceOf(p, h.accounts.USD);
  const q = await p.api.post('/quotes', quoteBody(bank, dest));
  expect(q.status, q.text).toBe(201);
  expect(q.body).toMatchObject({
    status: 'PENDING',
    source: { sourceType: 'ACCOUNT', accountId: bank, customerId: h.customerId },
    sendingCurrency: { code: 'USD' },
    receivingCurrency: { code: 'EUR' },
  });
  expect(q.body.paymentInstructions).toBeUndefined();
  const ex = await p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  expect(ex.body.status).toBe('PROCESSING');
  // Executing again is refused: one pull, one payout.
  expectError(await p.api.post(`/quotes/${q.body.id}/execute`), 409, 'CONFLICT');
  await advance(p, 5);
  const t = await txn(p, q.body.transactionId);
  expect(t).toMatchObject({
    status: 'COMPLETED',
    source: { sourceType: 'ACCOUNT', accountId: bank },
    sentAmount: { amount: 10000 },
  });
  expect(await eventTypes(t.id)).toEqual([
    'OUTGOING_PAYMENT.PENDING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED',
  ]);
  expect(await balanceOf(p, h.accounts.USD)).toEqual(usdBefore);
  // Found by either end's account id.
  for (const id of [bank, dest]) {
    const list = await p.api.get('/transactions', { query: { accountIdentifier: id } });
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(t.id);
  }
});

it('executes immediately into an internal account of another currency', async () => {
  const bank = await externalAccount(p, h.customerId, 'USD', '0111');
  const eurBefore = await balanceOf(p, h.accounts.EUR);
  const q = await p.api.post('/quotes', quoteBody(bank, h.accounts.EUR, { immediatelyExecute: true }));
  expect(q.status, q.text).toBe(201);
  expect(q.body.status).toBe('PROCESSING');
  await advance(p, 5);
  expect((await txn(p, q.body.transactionId)).status).toBe('COMPLETED');
  expect((await balanceOf(p, h.accounts.EUR)).available).toBe(
    eurBefore.available + BigInt(q.body.totalReceivingAmount),
  );
});

it('002 and 003: the pull is refused at once, the quote fails on execution and nothing moves', async () => {
  for (const [suffix, immediate] of [
    ['0002', false],
    ['0003', true],
  ] as const) {
    const bank = await externalAccount(p, h.customerId, 'USD', suffix);
    const eurBefore = await balanceOf(p, h.accounts.EUR);
    const q = await p.api.post('/quotes', quoteBody(bank, h.accounts.EUR, { immediatelyExecute: immediate }));
    expect(q.status, q.text).toBe(201);
    const quote = immediate ? q.body : (await p.api.post(`/quotes/${q.body.id}/execute`)).body;
    expect(quote.status).toBe('FAILED');
    const t = await txn(p, q.body.transactionId);
    expect(t).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
    expect(t.refund).toBeUndefined();
    expect(await eventTypes(t.id)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.FAILED']);
    expectError(await p.api.post(`/quotes/${q.body.id}/execute`), 409, 'CONFLICT');
    await advance(p, 10);
    expect(await balanceOf(p, h.accounts.EUR)).toEqual(eurBefore);
  }
});

it('004: the bank rejects the pull when it settles; nothing is paid out and there is nothing to refund', async () => {
  const bank = await externalAccount(p, h.customerId, 'USD', '0004');
  const eurBefore = await balanceOf(p, h.accounts.EUR);
  const q = (await p.api.post('/quotes', quoteBody(bank, h.accounts.EUR, { immediatelyExecute: true }))).body;
  expect(q.status).toBe('PROCESSING');
  await advance(p, 5);
  const t = await txn(p, q.transactionId);
  expect(t).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
  expect(t.refund).toBeUndefined();
  expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('FAILED');
  expect(await eventTypes(t.id)).toEqual([
    'OUTGOING_PAYMENT.PENDING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.FAILED',
  ]);
  expect(await balanceOf(p, h.accounts.EUR)).toEqual(eurBefore);
});

it('005: the pull stays pending about 30 seconds, then fails', async () => {
  const bank = await externalAccount(p, h.customerId, 'USD', '0005');
  const q = (await p.api.post('/quotes', quoteBody(bank, h.accounts.EUR, { immediatelyExecute: true }))).body;
  await advance(p, 29);
  expect((await txn(p, q.transactionId)).status).toBe('PROCESSING');
  await advance(p, 1);
  expect(await txn(p, q.transactionId)).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
});

it('a payout returned by the receiving bank is refunded to the bank account pulled from', async () => {
  const bank = await externalAccount(p, h.customerId, 'USD', '0121');
  const dest = await externalAccount(p, h.customerId, 'EUR', '0005');
  const q = (await p.api.post('/quotes', quoteBody(bank, dest, { immediatelyExecute: true }))).body;
  await advance(p, 5);
  await advance(p, 60);
  expect(await txn(p, q.transactionId)).toMatchObject({
    status: 'FAILED',
    failureReason: 'PAYOUT_RETURNED',
    refund: { status: 'COMPLETED' },
  });
});

it('refuses what cannot be pulled, and a source removed before execution', async () => {
  const eur = await externalAccount(p, h.customerId, 'EUR', '0131');
  const res = await p.api.post('/quotes', quoteBody(eur, h.accounts.USD));
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors[0].field).toBe('source.accountId');
  const bank = await externalAccount(p, h.customerId, 'USD', '0141');
  // Same currency: that is /transfer-in.
  expectError(await p.api.post('/quotes', quoteBody(bank, h.accounts.USD)), 400, 'INVALID_INPUT');
  // Only the account's owner can be the paying customer.
  const other = await customerWithAccounts(p, 'Not The Owner', ['EUR']);
  const wrong = await p.api.post('/quotes', {
    ...quoteBody(bank, h.accounts.EUR),
    source: { sourceType: 'ACCOUNT', accountId: bank, customerId: other.customerId },
  });
  expectError(wrong, 400, 'INVALID_INPUT');
  expect(wrong.body.details.errors[0].field).toBe('source.customerId');
  // Removed between quote and execution: refused, nothing moved, the quote still PENDING.
  const q = (await p.api.post('/quotes', quoteBody(bank, h.accounts.EUR))).body;
  expect((await p.api.delete(`/customers/external-accounts/${bank}`)).status).toBe(204);
  expectError(await p.api.post(`/quotes/${q.id}/execute`), 400, 'INVALID_INPUT');
  expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('PENDING');
  expect((await txn(p, q.transactionId)).status).toBe('PENDING');
});

it('concurrent executions of one pull-funded quote pull once', async () => {
  const bank = await externalAccount(p, h.customerId, 'USD', '0151');
  const q = (await p.api.post('/quotes', quoteBody(bank, h.accounts.EUR))).body;
  const results = await Promise.all([1, 2, 3, 4, 5].map(() => p.api.post(`/quotes/${q.id}/execute`)));
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of results.filter((r) => r.status !== 200)) expectError(r, 409, 'CONFLICT');
  await advance(p, 5);
  expect((await txn(p, q.transactionId)).status).toBe('COMPLETED');
});
