import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { connectedAgent, policy, type TestAgent } from './testing';

// Spending limits in the policy currency: per transaction, per UTC day (amount and count) and
// per month, counted atomically with the effect, reset by the platform's clock.
let p: TestPlatform;
let h: Holder;
let ext: string;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Lia Limits', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 10_000_000);
  ext = await externalAccount(p, h.customerId, 'USD', '321');
});
afterEach(async () => expectLedgerBalanced(p.platformId));

const send = (a: TestAgent, amount: number) =>
  a.api.post('/agents/me/transfer-out', {
    source: { accountId: h.accounts.USD },
    destination: { accountId: ext },
    amount,
  });
const reason = (res: { body: { details?: { reason?: string } } }) => res.body.details?.reason;

it('per transaction: the limit itself passes, one more is refused', async () => {
  const a = await connectedAgent(
    p,
    h.customerId,
    policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1000 } }),
  );
  expect((await send(a, 1000)).status).toBe(201);
  const over = await send(a, 1001);
  expectError(over, 403, 'FORBIDDEN');
  expect(reason(over)).toBe('PER_TRANSACTION_LIMIT_EXCEEDED');
});

it('daily amount and count: equal passes, one more is refused, nothing moves for the refused one', async () => {
  const a = await connectedAgent(
    p,
    h.customerId,
    policy({
      spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 10_000, dailyTransactionLimit: 3 },
    }),
  );
  expect((await send(a, 6000)).status).toBe(201);
  expect((await send(a, 4000)).status).toBe(201);
  const before = await balanceOf(p, h.accounts.USD);
  const over = await send(a, 1);
  expectError(over, 403, 'FORBIDDEN');
  expect(reason(over)).toBe('DAILY_LIMIT_EXCEEDED');
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  expect((await a.api.get('/agents/me')).body.usage).toMatchObject({ dailySpend: 10_000, dailyTransactionCount: 2 });

  const counted = await connectedAgent(
    p,
    h.customerId,
    policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyTransactionLimit: 2 } }),
  );
  expect((await send(counted, 1)).status).toBe(201);
  expect((await send(counted, 1)).status).toBe(201);
  const third = await send(counted, 1);
  expectError(third, 403, 'FORBIDDEN');
  expect(reason(third)).toBe('DAILY_TRANSACTION_LIMIT_EXCEEDED');
});

it('monthly amount: equal passes, one more is refused', async () => {
  const a = await connectedAgent(
    p,
    h.customerId,
    policy({
      spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: null, monthlyLimit: 3000 },
    }),
  );
  expect((await send(a, 3000)).status).toBe(201);
  const over = await send(a, 1);
  expectError(over, 403, 'FORBIDDEN');
  expect(reason(over)).toBe('MONTHLY_LIMIT_EXCEEDED');
});

it('12+ concurrent requests never pass the daily limit together', async () => {
  const a = await connectedAgent(
    p,
    h.customerId,
    policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 5000 } }),
  );
  const before = await balanceOf(p, h.accounts.USD);
  const results = await Promise.all(Array.from({ length: 14 }, () => send(a, 1000)));
  const ok = results.filter((r) => r.status === 201);
  const refused = results.filter((r) => r.status === 403);
  expect(ok).toHaveLength(5);
  expect(refused).toHaveLength(9);
  for (const r of refused) expect(reason(r)).toBe('DAILY_LIMIT_EXCEEDED');
  expect((await a.api.get('/agents/me')).body.usage).toMatchObject({ dailySpend: 5000, dailyTransactionCount: 5 });
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 5000n);
});

it('amounts in another currency count at the current rate in the policy currency', async () => {
  const a = await connectedAgent(
    p,
    h.customerId,
    policy({ spendingLimits: { currency: 'EUR', perTransactionLimit: 1_000_000, dailyLimit: 1_000_000 } }),
  );
  expect((await send(a, 10_000)).status).toBe(201);
  const usage = (await a.api.get('/agents/me')).body.usage;
  // $100.00 is some tens of euros, not 10,000 euro cents.
  expect(usage.dailySpend).toBeGreaterThan(5000);
  expect(usage.dailySpend).toBeLessThan(10_000);
});

it('usage resets at the next UTC day of the platform clock (sandbox clock advance)', async () => {
  const q = await newPlatform();
  const c = await customerWithAccounts(q, 'Ray Reset', ['USD']);
  await fund(q, c.accounts.USD, 1_000_000);
  const e = await externalAccount(q, c.customerId, 'USD', '321');
  const a = await connectedAgent(
    q,
    c.customerId,
    policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 1000 } }),
  );
  const go = () =>
    a.api.post('/agents/me/transfer-out', {
      source: { accountId: c.accounts.USD },
      destination: { accountId: e },
      amount: 1000,
    });
  expect((await go()).status).toBe(201);
  expectError(await go(), 403, 'FORBIDDEN');
  const me = (await a.api.get('/agents/me')).body;
  const { now } = await advance(q, 1);
  const seconds = Math.ceil((Date.parse(`${me.usage.dailyResetDate}T00:00:00Z`) - Date.parse(now)) / 1000) + 1;
  await advance(q, seconds);
  const after = (await a.api.get('/agents/me')).body.usage;
  expect(after).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
  expect(after.dailyResetDate > me.usage.dailyResetDate).toBe(true);
  expect((await go()).status).toBe(201);
});
