import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { freezeClock } from '@/lib/sandbox/clock';
import { newWallet } from '@/lib/wallet-auth/testing/flows';
import { advance, balanceOf, customerWithAccounts, externalAccount, txn, type Holder } from '@/tests/support/money';
import { expectCancelledBeforeSettling } from './testing';

// The platform's clock is frozen: it moves only when advanced, so delays hold to the second.
let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  await freezeClock(p.platformId);
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
  // Still pending a second before its time (the clock is frozen: no real time passes on it).
  await advance(p, seconds - 1);
  expect((await txn(p, res.body.id)).status).toBe('PROCESSING');
  await advance(p, 1);
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
