import { afterEach, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db } from '@/lib/core/db';
import { switchMode } from '@/tests/support/mode';

// The operation under test: POST /sandbox/internal-accounts/{accountId}/fund.
let p: TestPlatform;
let usd: { id: string };
beforeAll(async () => {
  p = await newPlatform();
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Funded Person',
    currencies: ['USD'],
  });
  usd = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body.data[0];
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});

it('adds funds through balanced ledger entries and announces the new balance', async () => {
  const res = await p.api.post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 10050 });
  expect(res.status, res.text).toBe(200);
  expect(res.body.balance).toEqual({
    amount: 10050,
    currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  });
  expect(res.body.totalBalance.amount).toBe(10050);
  const again = await p.api.post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 50 });
  expect(again.body.balance.amount).toBe(10100);
  const postings = await db().ledgerTransfer.findMany({
    where: { platformId: p.platformId, kind: 'SANDBOX_FUNDING' },
    include: { entries: true },
  });
  expect(postings).toHaveLength(2);
  for (const t of postings) expect(t.entries.reduce((s, e) => s + e.amount, 0n)).toBe(0n);
  const events = await eventsOf(p.platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
  expect(events.map((e) => (e.body.data as { balance: { amount: bigint | number } }).balance.amount)).toEqual([
    10050, 10100,
  ]);
});

it('funds exactly at the 1e11 maximum and refuses above it, zero and negatives', async () => {
  const q = await newPlatform();
  const plat = (await q.api.get('/platform/internal-accounts', { query: { currency: 'USD' } })).body.data[0];
  const res = await q.api.post(`/sandbox/internal-accounts/${plat.id}/fund`, { amount: 100000000000 });
  expect(res.status).toBe(200);
  expect(res.body.balance.amount).toBe(100000000000);
  for (const amount of [100000000001, 0, -5, 1.5, '100']) {
    expectError(await q.api.post(`/sandbox/internal-accounts/${plat.id}/fund`, { amount }), 400, 'INVALID_INPUT');
  }
  await expectLedgerBalanced(q.platformId);
});

it('is idempotent with a key', async () => {
  const key = crypto.randomUUID();
  const before = (
    await p.api.get('/customers/internal-accounts', { query: { customerId: undefined, currency: 'USD' } })
  ).body.data.find((a: { id: string }) => a.id === usd.id).balance.amount;
  const a = await p.api.post(
    `/sandbox/internal-accounts/${usd.id}/fund`,
    { amount: 7 },
    { headers: { 'idempotency-key': key } },
  );
  const b = await p.api.post(
    `/sandbox/internal-accounts/${usd.id}/fund`,
    { amount: 7 },
    { headers: { 'idempotency-key': key } },
  );
  expect(b.text).toBe(a.text);
  expect(a.body.balance.amount).toBe(before + 7);
});

it('answers 404 for unknown or foreign accounts and refuses closed ones', async () => {
  expectError(
    await p.api.post('/sandbox/internal-accounts/InternalAccount:00000000-0000-0000-0000-000000000000/fund', {
      amount: 1,
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  const other = await newPlatform();
  expectError(
    await other.api.post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1 }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Closing Person',
    currencies: ['EUR'],
  });
  const eur = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body.data[0];
  await p.api.delete(`/customers/${c.body.id}`);
  expectError(await p.api.post(`/sandbox/internal-accounts/${eur.id}/fund`, { amount: 1 }), 400, 'INVALID_INPUT');
});

it('is refused outside sandbox mode and without TRANSACT', async () => {
  const viewer = await p.withPermissions('VIEW');
  expectError(await viewer.post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1 }), 403, 'FORBIDDEN');
  switchMode('production');
  try {
    expectError(await p.api.post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1 }), 403, 'FORBIDDEN');
  } finally {
    switchMode('sandbox');
  }
});
