import { afterEach, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { advance, balanceOf, customerWithAccounts, fund, txn, type Holder } from '@/tests/support/money';

let p: TestPlatform;
let alice: Holder;
beforeAll(async () => {
  p = await newPlatform();
  alice = await customerWithAccounts(p, 'Alice Sender', ['USD', 'EUR', 'MXN']);
  await fund(p, alice.accounts.USD, 1_000_000);
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});

const accountQuote = (amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: alice.accounts.USD },
  destination: { destinationType: 'ACCOUNT', accountId: alice.accounts.EUR },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

it('creates a priced, expiring quote with a PENDING transaction', async () => {
  const res = await p.api.post('/quotes', accountQuote(10000, { description: 'Rent' }));
  expect(res.status, res.text).toBe(201);
  const q = res.body;
  expect(q.id).toMatch(/^Quote:/);
  expect(q).toMatchObject({
    status: 'PENDING',
    totalSendingAmount: 10000,
    sendingCurrency: { code: 'USD' },
    receivingCurrency: { code: 'EUR' },
  });
  // 10 cents + 25 bps service fee; no platform fee configured.
  expect(q.feesIncluded).toBe(35);
  expect(q.platformFeesIncluded).toBe(0);
  expect(q.exchangeRate).toBeGreaterThan(1); // USD per EUR
  // Receiving = (sending - fees) converted at the quoted rate, rounded down.
  expect(Math.abs(q.totalReceivingAmount - (10000 - 35) / q.exchangeRate)).toBeLessThan(1.01);
  expect(new Date(q.expiresAt).getTime() - new Date(q.createdAt).getTime()).toBe(120_000);
  expect(q.paymentInstructions).toBeUndefined();
  const t = await txn(p, q.transactionId);
  expect(t).toMatchObject({
    status: 'PENDING',
    type: 'OUTGOING',
    quoteId: q.id,
    description: 'Rent',
    sentAmount: { amount: 10000 },
  });
  expect((await p.api.get(`/quotes/${q.id}`)).body.id).toBe(q.id);
});

it('locks the receiving side exactly', async () => {
  const res = await p.api.post('/quotes', accountQuote(5000, { lockedCurrencySide: 'RECEIVING' }));
  expect(res.status).toBe(201);
  expect(res.body.totalReceivingAmount).toBe(5000);
  expect(res.body.totalSendingAmount).toBeGreaterThan(5000);
});

it('executes: the source is debited, the payout completes, the destination is credited', async () => {
  const before = await balanceOf(p, alice.accounts.USD);
  const q = (await p.api.post('/quotes', accountQuote(20000))).body;
  const ex = await p.api.post(`/quotes/${q.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  expect(ex.body.status).toBe('PROCESSING');
  const mid = await balanceOf(p, alice.accounts.USD);
  expect(mid.available).toBe(before.available - 20000n);
  expect(mid.total).toBe(before.total); // held while in flight
  // The balance event carries the balances the execution produced.
  const balanceEvents = (await eventsOf(p.platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED')).filter(
    (e) => e.body.data.id === alice.accounts.USD,
  );
  const last = balanceEvents.at(-1)!.body.data as {
    balance: { amount: bigint | number };
    totalBalance: { amount: bigint | number };
  };
  expect(BigInt(last.balance.amount)).toBe(mid.available);
  expect(BigInt(last.totalBalance.amount)).toBe(mid.total);
  expect((await txn(p, q.transactionId)).status).toBe('PROCESSING');
  await advance(p, 5);
  expect((await txn(p, q.transactionId)).status).toBe('COMPLETED');
  expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('COMPLETED');
  const after = await balanceOf(p, alice.accounts.USD);
  expect(after.total).toBe(before.total - 20000n);
  expect((await balanceOf(p, alice.accounts.EUR)).available).toBeGreaterThanOrEqual(BigInt(q.totalReceivingAmount));
  const types = (await eventsOf(p.platformId))
    .filter((e) => (e.body.data as { id?: string }).id === q.transactionId)
    .map((e) => e.type);
  expect(types).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);
});

it('refuses to execute twice, also concurrently, and after expiry', async () => {
  const q = (await p.api.post('/quotes', accountQuote(1000))).body;
  const results = await Promise.all([1, 2, 3, 4].map(() => p.api.post(`/quotes/${q.id}/execute`)));
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'CONFLICT');
  const late = (await p.api.post('/quotes', accountQuote(1000))).body;
  await advance(p, 121);
  expectError(await p.api.post(`/quotes/${late.id}/execute`), 409, 'CONFLICT');
  expect((await p.api.get(`/quotes/${late.id}`)).body.status).toBe('EXPIRED');
  expect((await txn(p, late.transactionId)).status).toBe('EXPIRED');
});

it('refuses execution without funds and moves nothing', async () => {
  const bob = await customerWithAccounts(p, 'Bob Poor', ['USD', 'EUR']);
  await fund(p, bob.accounts.USD, 100);
  const q = (
    await p.api.post('/quotes', {
      ...accountQuote(5000),
      source: { sourceType: 'ACCOUNT', accountId: bob.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: bob.accounts.EUR },
    })
  ).body;
  const res = await p.api.post(`/quotes/${q.id}/execute`);
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.reason).toBe('INSUFFICIENT_FUNDS');
  expect(await balanceOf(p, bob.accounts.USD)).toEqual({ available: 100n, total: 100n });
  expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('PENDING');
});

it('refuses to send from an account closed after the quote was made, and moves nothing', async () => {
  const carol = await customerWithAccounts(p, 'Carol Leaving', ['USD', 'EUR']);
  await fund(p, carol.accounts.USD, 10_000);
  const q = (
    await p.api.post('/quotes', {
      ...accountQuote(5000),
      source: { sourceType: 'ACCOUNT', accountId: carol.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: carol.accounts.EUR },
    })
  ).body;
  expect((await p.api.delete(`/customers/${carol.customerId}`)).status).toBe(200);
  const res = await p.api.post(`/quotes/${q.id}/execute`);
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.message).toMatch(/CLOSED/);
  expect(await balanceOf(p, carol.accounts.USD)).toEqual({ available: 10_000n, total: 10_000n });
  expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('PENDING');
});

it("answers QUOTE_NOT_FOUND for another platform's quote, which its own platform then executes", async () => {
  const q = (await p.api.post('/quotes', accountQuote(1000))).body;
  const other = await newPlatform();
  expectError(await other.api.post(`/quotes/${q.id}/execute`), 404, 'QUOTE_NOT_FOUND');
  const ex = await p.api.post(`/quotes/${q.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  expect(ex.body.status).toBe('PROCESSING');
});

it('executes immediately when asked, in the same request', async () => {
  const announced = async () =>
    (await eventsOf(p.platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED')).filter(
      (e) => e.body.data.id === alice.accounts.USD,
    ).length;
  const before = await announced();
  const res = await p.api.post('/quotes', accountQuote(3000, { immediatelyExecute: true }));
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('PROCESSING');
  // The source account's balance moved, and its balance event says so, as on a separate execute.
  expect(await announced()).toBe(before + 1);
  const poor = await customerWithAccounts(p, 'Carl Empty', ['USD', 'EUR']);
  const refused = await p.api.post('/quotes', {
    ...accountQuote(3000, { immediatelyExecute: true }),
    source: { sourceType: 'ACCOUNT', accountId: poor.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: poor.accounts.EUR },
  });
  expectError(refused, 400, 'INVALID_INPUT');
  // Nothing of the refused quote exists.
  const list = await p.api.get('/transactions', { query: { customerId: poor.customerId } });
  expect(list.body.totalCount).toBe(0);
});

it('validates the request', async () => {
  expectError(
    await p.api.post('/quotes', accountQuote(100, { remittanceInformation: 'x'.repeat(81) })),
    400,
    'INVALID_INPUT',
  );
  expectError(await p.api.post('/quotes', accountQuote(100, { purposeOfPayment: 'BRIBE' })), 400, 'INVALID_INPUT');
  const totp = await p.api.post('/quotes', accountQuote(100, { scaFactor: 'TOTP' }));
  expectError(totp, 400, 'INVALID_INPUT');
  expect(totp.body.details.errors[0].field).toBe('scaFactor');
  expectError(await p.api.post('/quotes', accountQuote(0)), 400, 'INVALID_INPUT');
  expectError(await p.api.post('/quotes', accountQuote(100, { lockedCurrencySide: 'BOTH' })), 400, 'INVALID_INPUT');
  const bigEur = await p.api.post('/quotes', {
    ...accountQuote(100),
    platformFeeOverride: { platformFixedFee: { amount: 5, currency: 'USD' }, platformVariableFeeBps: 10 },
    source: { sourceType: 'ACCOUNT', accountId: alice.accounts.EUR },
    destination: { destinationType: 'ACCOUNT', accountId: alice.accounts.USD },
  });
  expectError(bigEur, 400, 'INVALID_INPUT');
  expect(bigEur.body.details.errors[0].field).toBe('platformFeeOverride');
  expectError(
    await p.api.post('/quotes', {
      ...accountQuote(100),
      destination: { destinationType: 'ACCOUNT', accountId: alice.accounts.USD },
    }),
    400,
    'SELF_PAYMENT',
  );
  expectError(
    await p.api.post('/quotes', {
      ...accountQuote(100),
      source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:00000000-0000-0000-0000-000000000000' },
    }),
    400,
    'INVALID_INPUT',
  );
});

it('applies platform fee config and per-quote overrides to USD sources', async () => {
  const q = await newPlatform();
  const h = await customerWithAccounts(q, 'Fee Payer', ['USD', 'EUR']);
  await q.api.patch('/config', {
    feeConfigs: [
      {
        feeType: 'CROSS_CURRENCY_TRANSACTION',
        sourceCurrency: 'USD',
        variableFeeBps: 100,
        fixedFee: { amount: 50, currency: 'USD' },
      },
    ],
  });
  const body = {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10000,
  };
  const withConfig = (await q.api.post('/quotes', body)).body;
  expect(withConfig.platformFeesIncluded).toBe(150); // 50 + 1% of 10000
  expect(withConfig.feesIncluded).toBe(150 + 35);
  const overridden = (
    await q.api.post('/quotes', {
      ...body,
      platformFeeOverride: { platformFixedFee: { amount: 5, currency: 'USD' }, platformVariableFeeBps: 0 },
    })
  ).body;
  expect(overridden.platformFeesIncluded).toBe(5);
  // The platform fee settles to the platform's USD internal account on completion.
  await fund(q, h.accounts.USD, 10000);
  const platformUsd = (await q.api.get('/platform/internal-accounts', { query: { currency: 'USD' } })).body.data[0].id;
  await q.api.post(`/quotes/${withConfig.id}/execute`);
  await advance(q, 5);
  expect((await balanceOf(q, platformUsd)).available).toBe(150n);
  await expectLedgerBalanced(q.platformId);
});

it('refuses amounts above the configured single-transaction maximum, even beyond int64', async () => {
  const q = await newPlatform();
  const h = await customerWithAccounts(q, 'Big Spender', ['USD', 'EUR']);
  const body = (amount: bigint | number) => ({
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expectError(await q.api.post('/quotes', body(1_000_000_001)), 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
  expectError(await q.api.post('/quotes', body(90000000000000001000n)), 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
  expectError(await q.api.post('/quotes', body(9223372036854775808n)), 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
  const over = await q.api.post('/quotes', body(90000000000000001001n));
  expectError(over, 400, 'INVALID_INPUT');
  expect(over.body.details.errors[0].field).toBe('lockedCurrencyAmount');
  expect((await q.api.post('/quotes', body(1_000_000_000))).status).toBe(201);
});

it('requires TRANSACT', async () => {
  const viewer = await p.withPermissions('VIEW');
  expectError(await viewer.post('/quotes', accountQuote(100)), 403, 'FORBIDDEN');
  const q = (await p.api.post('/quotes', accountQuote(100))).body;
  expectError(await viewer.post(`/quotes/${q.id}/execute`), 403, 'FORBIDDEN');
  expectError(await p.api.get('/quotes/Quote:00000000-0000-0000-0000-000000000000'), 404, 'QUOTE_NOT_FOUND');
});

it('replays an executed quote by Idempotency-Key', async () => {
  const q = (await p.api.post('/quotes', accountQuote(700))).body;
  const key = crypto.randomUUID();
  const a = await p.api.post(`/quotes/${q.id}/execute`, undefined, { headers: { 'idempotency-key': key } });
  const b = await p.api.post(`/quotes/${q.id}/execute`, undefined, { headers: { 'idempotency-key': key } });
  expect(a.status).toBe(200);
  expect(b.text).toBe(a.text);
});
