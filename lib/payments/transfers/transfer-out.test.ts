import { afterEach, beforeAll, expect, it } from 'vitest';
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
import { expectCancelledBeforeSettling } from './testing';

// Same-currency transfers and the sandbox suffix table: 002 insufficient funds and 003 account
// closed/invalid fail at once; 004 rejected by the bank; 005 pending about 30 s, then fails. The
// platform's clock is frozen (it moves only when advanced), so delays hold to the second.
let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  await freezeClock(p.platformId);
  h = await customerWithAccounts(p, 'Tom Transfer', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 1_000_000);
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});

const out = async (suffix: string, amount = 10000, extra: Record<string, unknown> = {}) => {
  const dest = await externalAccount(p, h.customerId, 'USD', suffix);
  return p.api.post('/transfer-out', {
    source: { accountId: h.accounts.USD },
    destination: { accountId: dest, ...extra },
    amount,
  });
};

it('other suffix: processing, then completed; the money leaves', async () => {
  const before = await balanceOf(p, h.accounts.USD);
  const res = await out('321');
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    type: 'OUTGOING',
    status: 'PROCESSING',
    sentAmount: { amount: 10000 },
    receivedAmount: { amount: 10000 },
    fees: 0,
  });
  expect(await balanceOf(p, h.accounts.USD)).toEqual({ available: before.available - 10000n, total: before.total });
  await advance(p, 5);
  expect((await txn(p, res.body.id)).status).toBe('COMPLETED');
  expect((await balanceOf(p, h.accounts.USD)).total).toBe(before.total - 10000n);
});

it.each([
  ['002', 'QUOTE_EXECUTION_FAILED'],
  ['003', 'ACCOUNT_INVALID'],
])('%s fails immediately and moves nothing', async (suffix, reason) => {
  const before = await balanceOf(p, h.accounts.USD);
  const res = await out(suffix);
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({ status: 'FAILED', failureReason: reason });
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
});

it('004: rejected by the bank, refunded', async () => {
  const before = await balanceOf(p, h.accounts.USD);
  const res = await out('004');
  expect(res.body.status).toBe('PROCESSING');
  await advance(p, 5);
  expect(await txn(p, res.body.id)).toMatchObject({
    status: 'FAILED',
    failureReason: 'ACCOUNT_CANNOT_RECEIVE',
    refund: { status: 'COMPLETED' },
  });
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
});

it('005: pending about 30 seconds, then fails and refunds', async () => {
  const before = await balanceOf(p, h.accounts.USD);
  const res = await out('005');
  await advance(p, 29);
  expect((await txn(p, res.body.id)).status).toBe('PROCESSING');
  await advance(p, 1);
  expect((await txn(p, res.body.id)).status).toBe('FAILED');
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
});

it('refuses more than the balance and moves nothing; sweeps the whole balance without amount', async () => {
  const poor = await customerWithAccounts(p, 'Pam Poor', ['USD']);
  await fund(p, poor.accounts.USD, 500);
  const dest = await externalAccount(p, poor.customerId, 'USD', '888');
  const refused = await p.api.post('/transfer-out', {
    source: { accountId: poor.accounts.USD },
    destination: { accountId: dest },
    amount: 501,
  });
  expectError(refused, 400, 'INVALID_INPUT');
  expect(refused.body.details.reason).toBe('INSUFFICIENT_FUNDS');
  expect((await p.api.get('/transactions', { query: { customerId: poor.customerId } })).body.totalCount).toBe(0);
  const sweep = await p.api.post('/transfer-out', {
    source: { accountId: poor.accounts.USD },
    destination: { accountId: dest },
  });
  expect(sweep.body.sentAmount.amount).toBe(500);
  expect((await balanceOf(p, poor.accounts.USD)).available).toBe(0n);
});

it('refuses other currencies, other owners, unknown accounts, limits and missing permission', async () => {
  const eur = await externalAccount(p, h.customerId, 'EUR', '999');
  expectError(
    await p.api.post('/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: eur },
      amount: 1,
    }),
    400,
    'INVALID_CURRENCY',
  );
  const other = await customerWithAccounts(p, 'Olga Other', ['USD']);
  const theirs = await externalAccount(p, other.customerId, 'USD', '998');
  expectError(
    await p.api.post('/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: theirs },
      amount: 1,
    }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.post('/transfer-out', {
      source: { accountId: 'InternalAccount:00000000-0000-0000-0000-000000000000' },
      destination: { accountId: theirs },
      amount: 1,
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  const mine = await externalAccount(p, h.customerId, 'USD', '997');
  expectError(
    await p.api.post('/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: mine },
      amount: 1_000_000_001,
    }),
    400,
    'TRANSACTION_SIZE_LIMIT_EXCEEDED',
  );
  const viewer = await p.withPermissions('VIEW');
  expectError(
    await viewer.post('/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: mine },
      amount: 1,
    }),
    403,
    'FORBIDDEN',
  );
});

it('cancels an ACH transfer before it settles; an instant one cannot be cancelled', async () => {
  const before = await balanceOf(p, h.accounts.USD);
  const ach = await out('654', 3000, { paymentRail: 'ACH' });
  expect(ach.body.paymentRail).toBe('ACH');
  await expectCancelledBeforeSettling(p, ach.body.id, h.accounts.USD, before, { reason: 'REQUESTED_AFTER_HOURS' });
  expectError(await p.api.post(`/transactions/${ach.body.id}/cancel`), 409, 'TRANSACTION_NOT_CANCELLABLE');
  expect(ach.body.expectedSettlementAt).toEqual(expect.any(String));
  const rtp = await out('655', 3000);
  expect(rtp.body.expectedSettlementAt).toBeNull(); // instant rail (reference: null, settlement is immediate)
  expectError(await p.api.post(`/transactions/${rtp.body.id}/cancel`), 409, 'TRANSACTION_NOT_CANCELLABLE');
  expectError(
    await p.api.post('/transactions/Transaction:00000000-0000-0000-0000-000000000000/cancel'),
    404,
    'TRANSACTION_NOT_FOUND',
  );
});

it('an idempotent repeat creates one transfer', async () => {
  const dest = await externalAccount(p, h.customerId, 'USD', '246');
  const key = crypto.randomUUID();
  const body = { source: { accountId: h.accounts.USD }, destination: { accountId: dest }, amount: 100 };
  const [a, b] = await Promise.all([
    p.api.post('/transfer-out', body, { headers: { 'idempotency-key': key } }),
    p.api.post('/transfer-out', body, { headers: { 'idempotency-key': key } }),
  ]);
  expect(a.body.id).toBe(b.body.id);
});
