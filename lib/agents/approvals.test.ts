import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import {
  advance,
  balanceOf,
  customerWithAccounts,
  externalAccount,
  fund,
  txn,
  type Holder,
} from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { checkSchema } from '@/tests/support/conformance';
import { receiverFor, type Receiver } from '@/tests/support/webhook-receiver';
import { deliverDueWebhooks } from '@/lib/webhooks/service';
import { connectedAgent, policy, type TestAgent } from './testing';

// Actions that need the platform's approval: held with their PENDING transaction and nothing
// moved, announced by the AGENT_ACTION webhook, then approved (executed once) or rejected, by
// either route.
let p: TestPlatform;
let h: Holder;
let ext: string;
let agent: TestAgent;
let rx: Receiver;
beforeAll(async () => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1'; // the receiver listens on loopback
  p = await newPlatform();
  ({ rx } = await receiverFor(p));
  h = await customerWithAccounts(p, 'Pat Pending', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 1_000_000);
  ext = await externalAccount(p, h.customerId, 'USD', '321');
  agent = await connectedAgent(p, h.customerId, policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
});
afterAll(async () => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  await rx.close();
});
afterEach(async () => expectLedgerBalanced(p.platformId));

const out = (a: TestAgent, amount: number) =>
  a.api.post('/agents/me/transfer-out', {
    source: { accountId: h.accounts.USD },
    destination: { accountId: ext },
    amount,
  });
const usage = async (a: TestAgent) => (await a.api.get('/agents/me')).body.usage;

it('held: PENDING transaction from submission, nothing moved, listed, webhook delivered; approved once', async () => {
  const before = await balanceOf(p, h.accounts.USD);
  const res = await out(agent, 4000);
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    status: 'PENDING_APPROVAL',
    transaction: { status: 'PENDING', type: 'OUTGOING' },
  });
  const action = res.body;
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  const pending = await p.api.get('/agents/approvals', { query: { agentId: agent.id } });
  expect(pending.body.data.map((a: { id: string }) => a.id)).toEqual([action.id]);
  expect((await p.api.get('/agents/approvals', { query: { customerId: 'Customer:none' } })).body.data).toEqual([]);

  await deliverDueWebhooks({ platformId: p.platformId });
  const hook = rx.received.find((r) => r.json.type === 'AGENT_ACTION.PENDING_APPROVAL');
  expect(hook, 'AGENT_ACTION webhook delivered').toBeDefined();
  expect(hook!.signatureValid).toBe(true);
  expect(hook!.json.data).toMatchObject({ id: action.id, status: 'PENDING_APPROVAL', agentId: agent.id });
  checkSchema('AgentActionWebhook', hook!.json);

  const approved = await p.api.post(`/agents/${agent.id}/actions/${action.id}/approve`);
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body).toMatchObject({
    status: 'APPROVED',
    transaction: { id: action.transaction.id, status: 'PROCESSING' },
  });
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 4000n);
  // Once: again on either route, 409; the money moved once.
  expectError(
    await p.api.post(`/agents/${agent.id}/actions/${action.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  expectError(
    await p.api.post(`/transactions/${action.transaction.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  expectError(
    await p.api.post(`/agents/${agent.id}/actions/${action.id}/reject`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 4000n);
  expect((await agent.api.get(`/agents/me/actions/${action.id}`)).body.status).toBe('APPROVED');
  await advance(p, 60);
  expect((await txn(p, action.transaction.id)).status).toBe('COMPLETED');
});

it('transfer-in approved through POST /transactions/{transactionId}/approve', async () => {
  const res = await agent.api.post('/agents/me/transfer-in', {
    source: { accountId: ext },
    destination: { accountId: h.accounts.USD },
    amount: 900,
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    status: 'PENDING_APPROVAL',
    transaction: { status: 'PENDING', type: 'INCOMING' },
  });
  const before = await balanceOf(p, h.accounts.USD);
  const approved = await p.api.post(`/transactions/${res.body.transaction.id}/approve`);
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body).toMatchObject({ id: res.body.transaction.id, status: 'PROCESSING' });
  expect((await balanceOf(p, h.accounts.USD)).total).toBe(before.total + 900n);
  expect((await agent.api.get(`/agents/me/actions/${res.body.id}`)).body.status).toBe('APPROVED');
  expectError(
    await p.api.post(`/agents/${agent.id}/actions/${res.body.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
});

it('rejected on either route: nothing moves, the reason is kept, the counting is given back', async () => {
  const before = await balanceOf(p, h.accounts.USD);
  const used = await usage(agent);
  const a1 = (await out(agent, 3000)).body;
  expect((await usage(agent)).dailySpend).toBe(used.dailySpend + 3000);
  const rejected = await p.api.post(`/agents/${agent.id}/actions/${a1.id}/reject`, { reason: 'Too risky today' });
  expect(rejected.status, rejected.text).toBe(200);
  expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'Too risky today' });
  expect(rejected.body.transaction).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  expect((await usage(agent)).dailySpend).toBe(used.dailySpend);
  expectError(
    await p.api.post(`/agents/${agent.id}/actions/${a1.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );

  const a2 = (
    await agent.api.post('/agents/me/transfer-in', {
      source: { accountId: ext },
      destination: { accountId: h.accounts.USD },
      amount: 500,
    })
  ).body;
  const viaTx = await p.api.post(`/transactions/${a2.transaction.id}/reject`, { reason: 'No' });
  expect(viaTx.status, viaTx.text).toBe(200);
  expect(viaTx.body.status).toBe('REJECTED');
  expect((await agent.api.get(`/agents/me/actions/${a2.id}`)).body).toMatchObject({
    status: 'REJECTED',
    rejectionReason: 'No',
  });
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
  // Another agent's action is not found under this agent's path.
  const other = await connectedAgent(p, h.customerId, policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
  const a3 = (await out(other, 100)).body;
  expectError(await p.api.post(`/agents/${agent.id}/actions/${a3.id}/approve`), 404, 'REFERENCE_NOT_FOUND');
});

it('concurrent approvals by both routes execute once', async () => {
  // A pull: its transaction is INCOMING, the shape both routes answer with.
  const before = await balanceOf(p, h.accounts.USD);
  const a = (
    await agent.api.post('/agents/me/transfer-in', {
      source: { accountId: ext },
      destination: { accountId: h.accounts.USD },
      amount: 1200,
    })
  ).body;
  const calls = Array.from({ length: 8 }, (_, i) =>
    i % 2
      ? p.api.post(`/agents/${agent.id}/actions/${a.id}/approve`)
      : p.api.post(`/transactions/${a.transaction.id}/approve`),
  );
  const results = await Promise.all(calls);
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of results.filter((x) => x.status !== 200))
    expectError(r, 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
  expect((await balanceOf(p, h.accounts.USD)).total).toBe(before.total + 1200n);
});

it('an amount above the approval threshold waits even in AUTO; below runs at once', async () => {
  const t = await connectedAgent(p, h.customerId, policy({ approvalThresholds: { currency: 'USD', amount: 1000 } }));
  expect((await out(t, 1000)).body.status).toBe('APPROVED');
  expect((await out(t, 1001)).body.status).toBe('PENDING_APPROVAL');
});

it('a quote held for approval: approved it executes once; expired meanwhile the action FAILS with a reason', async () => {
  const body = {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 2000,
  };
  const q1 = (await agent.api.post('/agents/me/quotes', body)).body;
  const held = await agent.api.post(`/agents/me/quotes/${q1.id}/execute`);
  expect(held.status, held.text).toBe(200);
  expect(held.body).toMatchObject({
    status: 'PENDING_APPROVAL',
    quote: { id: q1.id },
    transaction: { status: 'PENDING' },
  });
  expectError(await agent.api.post(`/agents/me/quotes/${q1.id}/execute`), 409, 'CONFLICT');
  const before = await balanceOf(p, h.accounts.USD);
  const ok = await p.api.post(`/agents/${agent.id}/actions/${held.body.id}/approve`);
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body).toMatchObject({ status: 'APPROVED', transaction: { status: 'PROCESSING' } });
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - BigInt(q1.totalSendingAmount));

  const q2 = (await agent.api.post('/agents/me/quotes', body)).body;
  const a2 = (await agent.api.post(`/agents/me/quotes/${q2.id}/execute`)).body;
  const used = await usage(agent);
  await advance(p, 3600);
  const mid = await balanceOf(p, h.accounts.USD);
  // Expired before anyone decided: the worker failed the action (lib/agents/expiry.ts).
  expectError(
    await p.api.post(`/agents/${agent.id}/actions/${a2.id}/approve`),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  const late = await agent.api.get(`/agents/me/actions/${a2.id}`);
  expect(late.body.status).toBe('FAILED');
  expect(late.body.failureReason).toMatch(/expired/i);
  expect(await balanceOf(p, h.accounts.USD)).toEqual(mid);
  expect((await usage(agent)).monthlySpend).toBeLessThan(used.monthlySpend);
});
