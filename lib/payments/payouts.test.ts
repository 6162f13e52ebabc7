import { afterEach, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { freezeClock } from '@/lib/sandbox/clock';
import {
  advance,
  balanceOf,
  customerWithAccounts,
  externalAccount,
  fund,
  txn,
  type Holder,
} from '@/tests/support/money';

// Quote destination outcomes by identifier suffix (spec, sandbox table), with the ledger checked
// after each: money that comes back is booked back. The platform's clock is frozen: it moves only
// when advanced, so a delay's boundary holds to the second however long the test takes.
let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  await freezeClock(p.platformId);
  h = await customerWithAccounts(p, 'Payout Sender', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 10_000_000);
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});

async function pay(suffix: string, amount = 10000) {
  const dest = await externalAccount(p, h.customerId, 'EUR', suffix);
  const q = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: dest },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expect(q.status, q.text).toBe(201);
  const before = await balanceOf(p, h.accounts.USD);
  const ex = await p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  expect(ex.body.status).toBe('PROCESSING');
  return { quote: q.body, before, transactionId: q.body.transactionId as string };
}

const eventTypes = async (id: string) =>
  (await eventsOf(p.platformId)).filter((e) => (e.body.data as { id?: string }).id === id).map((e) => e.type);

it('other suffix: completes, money leaves', async () => {
  const { before, transactionId, quote } = await pay('123');
  await advance(p, 5);
  const t = await txn(p, transactionId);
  expect(t).toMatchObject({
    status: 'COMPLETED',
    paymentRail: 'SEPA_INSTANT',
    railSelectionMode: 'AUTO',
    receivedAmount: { amount: quote.totalReceivingAmount },
  });
  expect(t.settledAt).toBeDefined();
  expect((await balanceOf(p, h.accounts.USD)).total).toBe(before.total - 10000n);
});

it('002: quote execution failed, the debit is refunded', async () => {
  const { before, transactionId } = await pay('002');
  await advance(p, 5);
  const t = await txn(p, transactionId);
  expect(t).toMatchObject({
    status: 'FAILED',
    failureReason: 'QUOTE_EXECUTION_FAILED',
    refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
  });
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  expect(await eventTypes(transactionId)).toEqual([
    'OUTGOING_PAYMENT.PENDING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.FAILED',
    'OUTGOING_PAYMENT.REFUND_COMPLETED',
  ]);
});

it('003: completes after about six minutes', async () => {
  const { transactionId } = await pay('003');
  await advance(p, 60);
  expect((await txn(p, transactionId)).status).toBe('PROCESSING');
  await advance(p, 299);
  expect((await txn(p, transactionId)).status).toBe('PROCESSING');
  await advance(p, 1);
  expect((await txn(p, transactionId)).status).toBe('COMPLETED');
});

it('004: counterparty delivery failed, refunded', async () => {
  const { before, transactionId } = await pay('004');
  await advance(p, 5);
  expect(await txn(p, transactionId)).toMatchObject({
    status: 'FAILED',
    failureReason: 'ACCOUNT_CANNOT_RECEIVE',
    refund: { status: 'COMPLETED' },
  });
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
});

it('005: completes, then the receiving bank returns it; the principal comes back, fees are kept', async () => {
  const { before, transactionId, quote } = await pay('005');
  await advance(p, 5);
  expect((await txn(p, transactionId)).status).toBe('COMPLETED');
  await advance(p, 60);
  const t = await txn(p, transactionId);
  expect(t).toMatchObject({
    status: 'FAILED',
    failureReason: 'PAYOUT_RETURNED',
    refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
  });
  const after = await balanceOf(p, h.accounts.USD);
  expect(after.available).toBe(before.available - BigInt(quote.feesIncluded));
  expect(await eventTypes(transactionId)).toEqual([
    'OUTGOING_PAYMENT.PENDING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED',
    'OUTGOING_PAYMENT.FAILED',
    'OUTGOING_PAYMENT.REFUND_COMPLETED',
  ]);
});

it('006: user cancellation, refunded', async () => {
  const { before, transactionId } = await pay('006');
  await advance(p, 5);
  const t = await txn(p, transactionId);
  expect(t).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' } });
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
});

it('007: payout and refund failed; the money stays held, never lost', async () => {
  const { before, transactionId } = await pay('007');
  await advance(p, 5);
  expect(await txn(p, transactionId)).toMatchObject({
    status: 'FAILED',
    failureReason: 'ACCOUNT_INVALID',
    refund: { status: 'FAILED' },
  });
  const after = await balanceOf(p, h.accounts.USD);
  expect(after.available).toBe(before.available - 10000n);
  expect(after.total).toBe(before.total);
  expect(await eventTypes(transactionId)).toContain('OUTGOING_PAYMENT.REFUND_FAILED');
});

it('uses a requested rail, refuses a rail the account does not have', async () => {
  const dest = await externalAccount(p, h.customerId, 'EUR', '321');
  const body = {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1000,
  };
  const q = await p.api.post('/quotes', {
    ...body,
    destination: { destinationType: 'ACCOUNT', accountId: dest, paymentRail: 'SEPA' },
  });
  expect(q.status).toBe(201);
  expect(new Date(q.body.expiresAt).getTime() - new Date(q.body.createdAt).getTime()).toBe(900_000); // batch rail
  expect((await txn(p, q.body.transactionId)).railSelectionMode).toBe('MANUAL');
  const bad = await p.api.post('/quotes', {
    ...body,
    destination: { destinationType: 'ACCOUNT', accountId: dest, paymentRail: 'PIX' },
  });
  expectError(bad, 400, 'INVALID_INPUT');
});

it('refuses same-currency account payouts (transfer-out is for those)', async () => {
  const usdDest = await externalAccount(p, h.customerId, 'USD', '777');
  const res = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: usdDest },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 100,
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.message).toMatch(/transfer out for same-currency/);
});

it('enforces requiredPayerDataFields from the receiver lookup', async () => {
  const inr = await p.api.post('/customers/external-accounts', {
    customerId: h.customerId,
    currency: 'INR',
    accountInfo: {
      accountType: 'INR_ACCOUNT',
      accountNumber: '123456789012',
      ifsc: 'HDFC0001234',
      rail: 'NEFT',
      bankName: 'HDFC Bank',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Ravi Kumar',
        address: { line1: 'MG Road', postalCode: '560001', country: 'IN' },
      },
    },
  });
  expect(inr.status, inr.text).toBe(201);
  const lookup = await p.api.get(`/receiver/external-account/${inr.body.id}`, {
    query: { customerId: h.customerId },
  });
  expect(lookup.status, lookup.text).toBe(200);
  expect(lookup.body.requiredPayerDataFields).toEqual(
    expect.arrayContaining([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'POSTAL_ADDRESS', mandatory: true },
    ]),
  );
  expect(lookup.body.supportedCurrencies[0].currency.code).toBe('INR');
  const body = {
    lookupId: lookup.body.lookupId,
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: inr.body.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1000,
    purposeOfPayment: 'FAMILY_SUPPORT',
  };
  const missing = await p.api.post('/quotes', body);
  expectError(missing, 400, 'MISSING_MANDATORY_USER_INFO');
  expect(missing.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
    'senderCustomerInfo.FULL_NAME',
    'senderCustomerInfo.POSTAL_ADDRESS',
  ]);
  const ok = await p.api.post('/quotes', {
    ...body,
    senderCustomerInfo: { FULL_NAME: 'Payout Sender', POSTAL_ADDRESS: '1 Main St, Springfield' },
  });
  expect(ok.status, ok.text).toBe(201);
  expectError(
    await p.api.get('/receiver/external-account/ExternalAccount:00000000-0000-0000-0000-000000000000', {
      query: { customerId: h.customerId },
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.get(`/receiver/external-account/${inr.body.id}`), 400, 'INVALID_INPUT'); // no sender
  // A lookupId must be a live lookup of this destination: made up, or of another account, it is refused.
  const other = await externalAccount(p, h.customerId, 'EUR', '4321');
  for (const lookupId of ['Lookup:00000000-0000-0000-0000-000000000000', lookup.body.lookupId]) {
    const res = await p.api.post('/quotes', {
      ...body,
      lookupId,
      destination: { destinationType: 'ACCOUNT', accountId: other },
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('lookupId');
  }
});

it('settles a batch of payouts with one statement; each is settled once, the ledger stays balanced', async () => {
  const { settleMany } = await import('@/lib/payments/settlement');
  const b = await customerWithAccounts(p, 'Batch Sender', ['USD', 'EUR']);
  await fund(p, b.accounts.USD, 100_000);
  const base = await balanceOf(p, b.accounts.USD);
  const ids: string[] = [];
  for (const [suffix, amount] of [
    ['123', 1000],
    ['124', 2000],
    ['002', 3000],
    ['125', 4000],
  ] as const) {
    const dest = await externalAccount(p, b.customerId, 'EUR', suffix);
    const q = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: b.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: dest },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    });
    expect((await p.api.post(`/quotes/${q.body.id}/execute`)).status).toBe(200);
    ids.push(q.body.transactionId);
  }
  expect(await balanceOf(p, b.accounts.USD)).toEqual({ available: base.available - 10_000n, total: base.total });
  // One settled alone first; then a batch naming it again (settled: skipped), one payout twice
  // and an unknown one. The three in flight settle in one statement: the source account moves
  // once and announces its balance once.
  expect(await settleMany([ids[0]])).toEqual([undefined]);
  const balanceEvents = async () =>
    (await eventsOf(p.platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED')).filter((e) => e.body.data.id === b.accounts.USD)
      .length;
  const announced = await balanceEvents();
  const results = await settleMany([...ids, ids[1], 'Transaction:00000000-0000-4000-8000-000000000000']);
  expect(results).toEqual(Array(ids.length + 2).fill(undefined));
  expect(await balanceEvents()).toBe(announced + 1);
  expect((await Promise.all(ids.map((id) => txn(p, id)))).map((t) => t.status)).toEqual([
    'COMPLETED',
    'COMPLETED',
    'FAILED',
    'COMPLETED',
  ]);
  for (const id of ids) {
    const types = await eventTypes(id);
    expect(types.filter((t) => t === 'OUTGOING_PAYMENT.COMPLETED' || t === 'OUTGOING_PAYMENT.FAILED')).toHaveLength(1);
  }
  // The failed 3000 came back; the rest left the account.
  expect(await balanceOf(p, b.accounts.USD)).toEqual({
    available: base.available - 7000n,
    total: base.total - 7000n,
  });
  // The settle jobs, when they come due, find their payouts settled and change nothing.
  await advance(p, 5);
  expect((await Promise.all(ids.map((id) => txn(p, id)))).map((t) => t.status)).toEqual([
    'COMPLETED',
    'COMPLETED',
    'FAILED',
    'COMPLETED',
  ]);
  expect(await balanceOf(p, b.accounts.USD)).toEqual({
    available: base.available - 7000n,
    total: base.total - 7000n,
  });
});
