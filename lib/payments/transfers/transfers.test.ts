import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { db } from '@/lib/core/db';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { newWallet } from '@/lib/wallet-auth/testing/flows';
import {
  advance,
  balanceOf,
  customerWithAccounts,
  externalAccount,
  fund,
  txn,
  type Holder,
} from '@/tests/support/money';

/**
 * A transfer cancelled before it settles: FAILED with a completed USER_CANCELLATION refund, the
 * answer being the transaction as stored, the balance back to `before`, and the settlement timer
 * then finding nothing to do.
 */
async function expectCancelledBeforeSettling(
  p: TestPlatform,
  id: string,
  account: string,
  before: Awaited<ReturnType<typeof balanceOf>>,
  body?: unknown,
) {
  const cancelled = await p.api.post(`/transactions/${id}/cancel`, body);
  expect(cancelled.status, cancelled.text).toBe(200);
  // FAILED always carries a failureReason (reference); the refund says it was a cancellation.
  expect(cancelled.body).toMatchObject({
    status: 'FAILED',
    failureReason: expect.stringMatching(/^(QUOTE_EXECUTION_FAILED|COLLECTION_FAILED)$/),
    refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' },
  });
  expect(cancelled.body).toEqual((await p.api.get(`/transactions/${id}`)).body);
  const reason = (body as { reason?: string } | undefined)?.reason;
  if (reason) {
    // The platform's reason is its own note (reference: for debugging or its own purposes): kept,
    // but not written into the payer's description.
    expect(JSON.stringify(cancelled.body)).not.toContain(reason);
    expect((await db().transaction.findUnique({ where: { id } }))?.platformReason).toBe(reason);
  }
  expect(await balanceOf(p, account)).toEqual(before);
  await advance(p, 5);
  expect((await txn(p, id)).status).toBe('FAILED');
  expect(await balanceOf(p, account)).toEqual(before);
}

// Same-currency transfers and the sandbox suffix table: 002 insufficient funds and 003 account
// closed/invalid fail at once; 004 rejected by the bank; 005 pending about 30 s, then fails.
describe('transfer-out', () => {
  let p: TestPlatform;
  let h: Holder;
  beforeAll(async () => {
    p = await newPlatform();
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
    await advance(p, 25);
    expect((await txn(p, res.body.id)).status).toBe('PROCESSING');
    await advance(p, 6);
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
});

describe('transfer-in (direct pull)', () => {
  let p: TestPlatform;
  let h: Holder;
  beforeAll(async () => {
    p = await newPlatform();
    h = await customerWithAccounts(p, 'Ivy Incoming', ['USD', 'EUR']);
  });
  afterEach(async () => {
    await expectLedgerBalanced(p.platformId);
  });

  const pull = async (suffix: string, amount = 5000) => {
    const src = await externalAccount(p, h.customerId, 'USD', suffix);
    return p.api.post('/transfer-in', {
      source: { accountId: src },
      destination: { accountId: h.accounts.USD },
      amount,
    });
  };

  it('pulls into an Embedded Wallet too: only money leaving a wallet needs its signature', async () => {
    const w = await newWallet(p);
    const src = await externalAccount(p, w.customerId, 'USD', '0161');
    const res = await p.api.post('/transfer-in', {
      source: { accountId: src },
      destination: { accountId: w.accountId },
      amount: 700,
    });
    expect(res.status, res.text).toBe(201);
    await advance(p, 5);
    expect((await txn(p, res.body.id)).status).toBe('COMPLETED');
    expect((await balanceOf(p, w.accountId)).available).toBe(700n);
    // Sending out of the wallet by transfer-out is still refused.
    const out = await externalAccount(p, w.customerId, 'USD', '0171');
    expectError(
      await p.api.post('/transfer-out', {
        source: { accountId: w.accountId },
        destination: { accountId: out },
        amount: 100,
      }),
      400,
      'INVALID_INPUT',
    );
  });

  it('other suffix: pending credit, then available', async () => {
    const before = await balanceOf(p, h.accounts.USD);
    const res = await pull('111');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      type: 'INCOMING',
      direction: 'DEBIT',
      status: 'PROCESSING',
      receivedAmount: { amount: 5000 },
    });
    expect(await balanceOf(p, h.accounts.USD)).toEqual({ available: before.available, total: before.total + 5000n });
    await advance(p, 5);
    expect((await txn(p, res.body.id)).status).toBe('COMPLETED');
    expect(await balanceOf(p, h.accounts.USD)).toEqual({
      available: before.available + 5000n,
      total: before.total + 5000n,
    });
  });

  it('a pull cancelled before it settles withdraws the pending credit', async () => {
    const before = await balanceOf(p, h.accounts.USD);
    const res = await pull('121');
    await expectCancelledBeforeSettling(p, res.body.id, h.accounts.USD, before);
  });

  it.each(['002', '003'])('%s fails immediately', async (suffix) => {
    const before = await balanceOf(p, h.accounts.USD);
    const res = await pull(suffix);
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'COLLECTION_FAILED' });
    expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  });

  it.each([
    ['004', 5],
    ['005', 30],
  ])('%s fails after %i seconds and the pending credit is withdrawn', async (suffix, seconds) => {
    const before = await balanceOf(p, h.accounts.USD);
    const res = await pull(suffix);
    // Still pending shortly before its time (3 s early: real time passes too on a busy machine).
    await advance(p, seconds - 3);
    expect((await txn(p, res.body.id)).status).toBe('PROCESSING');
    await advance(p, 3);
    expect(await txn(p, res.body.id)).toMatchObject({ status: 'FAILED', failureReason: 'COLLECTION_FAILED' });
    expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  });

  it('pulls only from USD bank accounts, and needs an amount', async () => {
    const eur = await externalAccount(p, h.customerId, 'EUR', '112');
    expectError(
      await p.api.post('/transfer-in', {
        source: { accountId: eur },
        destination: { accountId: h.accounts.EUR },
        amount: 1,
      }),
      400,
      'INVALID_INPUT',
    );
    const usd = await externalAccount(p, h.customerId, 'USD', '113');
    expectError(
      await p.api.post('/transfer-in', { source: { accountId: usd }, destination: { accountId: h.accounts.USD } }),
      400,
      'INVALID_INPUT',
    );
  });
});
