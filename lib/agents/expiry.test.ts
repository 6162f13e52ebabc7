import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, balanceOf, customerWithAccounts, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { staffActor } from '@/tests/support/console-export';
import { runAs } from '@/lib/core/context';
import { listExpiredWhileHeld } from './approvals';
import { connectedAgent, policy, type TestAgent } from './testing';

// A quote held for the platform's approval that expires first leaves the approval queue by
// itself: the worker fails its action (lib/agents/expiry.ts), gives back its counting, and a late
// approval is refused as no longer pending — nothing moves.
let p: TestPlatform;
let h: Holder;
let agent: TestAgent;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Quinn Quote', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 100_000);
  agent = await connectedAgent(p, h.customerId, policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
});
afterEach(async () => expectLedgerBalanced(p.platformId));

const usage = async () => (await agent.api.get('/agents/me')).body.usage;
const pending = async () =>
  ((await p.api.get('/agents/approvals', { query: { agentId: agent.id } })).body.data as { id: string }[]).map(
    (a) => a.id,
  );

it('an expired held quote fails its action on the worker, gives back its counting, and cannot be approved', async () => {
  const quote = await agent.api.post('/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 2500,
  });
  expect(quote.status, quote.text).toBe(201);
  const held = await agent.api.post(`/agents/me/quotes/${quote.body.id}/execute`);
  expect(held.status, held.text).toBe(200);
  expect(held.body.status).toBe('PENDING_APPROVAL');
  expect(await pending()).toEqual([held.body.id]);
  const counted = await usage();
  expect(counted.dailyTransactionCount).toBe(1);
  const before = await balanceOf(p, h.accounts.USD);
  // What the console lists as expired while held: nothing yet. (A staff actor carries the
  // platform's clock as it stood when signed in, as each console request does: a fresh one each time.)
  const expiredList = async () => {
    const staff = await staffActor(p.platformId, 'viewer');
    return (await runAs(staff, () => listExpiredWhileHeld(staff))).map((e) => e.action.id);
  };
  expect(await expiredList()).toEqual([]);

  // Just past the quote's expiry (the platform's clock is this one, not yet advanced): the
  // worker's sweeps run.
  await advance(p, Math.ceil((Date.parse(quote.body.expiresAt) - Date.now()) / 1000) + 5);

  expect(await pending()).toEqual([]);
  const action = await agent.api.get(`/agents/me/actions/${held.body.id}`);
  expect(action.status, action.text).toBe(200);
  expect(action.body.status).toBe('FAILED');
  expect(action.body.failureReason).toMatch(/expired before the action was approved/);
  expect(
    action.body.transaction?.status ?? (await p.api.get(`/transactions/${held.body.transaction.id}`)).body.status,
  ).toBe('EXPIRED');
  const after = await usage();
  expect(after.dailyTransactionCount).toBe(0);
  expect(after.monthlySpend).toBe(counted.monthlySpend - held.body.quote.totalSendingAmount);
  expectError(
    await p.api.post(`/agents/${agent.id}/actions/${held.body.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);

  // The console lists it as expired while held, for a day of the platform's clock.
  expect(await expiredList()).toEqual([held.body.id]);
  await advance(p, 24 * 3600 + 60);
  expect(await expiredList()).toEqual([]);
});
