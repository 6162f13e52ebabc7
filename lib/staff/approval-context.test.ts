import { beforeAll, describe, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { connectedAgent, policy, type TestAgent } from '@/lib/agents/testing';
import { listApprovals } from '@/lib/agents/approvals';
import * as agents from '@/lib/agents/service';
import { holdReasons } from '@/lib/agents/policy';
import type { AgentPolicy } from '@/lib/agents/schema';
import { runAs } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import { now } from '@/lib/core/clock';
import { approvalContext } from './approval-context';
import type { StaffActor } from './roles';
import * as staff from './service';

// What the console shows beside a held agent action: the customer by name with their KYC state,
// the payee with bank, rail and country, both sides of the money and the rate, why the policy
// held it (rule, threshold, how far over), when its quote expires and the agent's recent actions.
let p: TestPlatform;
let h: Holder;
let ext: string;
let agent: TestAgent;

let actor: StaffActor;

async function contextOf(actionId: string) {
  return runAs(actor, async () => {
    const page = await listApprovals(actor, { limit: 50, sortOrder: 'asc' });
    const action = page.data.find((a) => a.id === actionId)!;
    expect(action).toBeDefined();
    const a = await agents.get(p.platformId, action.agentId);
    return approvalContext(p.platformId, action, a, now(), db());
  });
}

beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Ada Lovelace', ['USD', 'EUR']);
  await fund(p, h.accounts.USD, 1_000_000);
  ext = await externalAccount(p, h.customerId, 'USD', '321');
  agent = await connectedAgent(p, h.customerId, policy({ approvalThresholds: { currency: 'USD', amount: 20_000 } }));
  const email = `viewer-${process.pid}-${Date.now()}@context.example`;
  const { user } = await staff.createUser(
    p.platformId,
    { email, role: 'viewer', password: 'a-long-enough-password' },
    db(),
  );
  actor = (await staff.actorOf((await staff.signIn(user.email, 'a-long-enough-password')).sessionId))!;
});

describe('approval context', () => {
  it('a transfer above the threshold: customer, payee, amount, how far over, recent actions', async () => {
    const small = await agent.api.post('/agents/me/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: ext },
      amount: 1500,
    });
    expect(small.body.status, small.text).toBe('APPROVED');
    const held = await agent.api.post('/agents/me/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: ext },
      amount: 25_000,
    });
    expect(held.body.status, held.text).toBe('PENDING_APPROVAL');

    const c = await contextOf(held.body.id);
    expect(c.customer).toMatchObject({ name: 'Ada Lovelace', kind: 'INDIVIDUAL' });
    expect(c.customer.verification).toMatch(/^(APPROVED|PENDING|UNVERIFIED|REJECTED|HOLD)$/);
    expect(c.payee).toMatchObject({ id: ext, name: 'Pat Receiver', bank: 'Test Bank', country: 'DE' });
    expect(c.source).toMatchObject({ id: h.accounts.USD, name: 'USD account of Ada Lovelace' });
    expect(c.sending).toEqual({ amount: 25_000n, currency: 'USD' });
    expect(c.receiving).toEqual({ amount: 25_000n, currency: 'USD' });
    expect(c.held).toEqual([
      { rule: 'APPROVAL_THRESHOLD', amount: 25_000n, threshold: 20_000n, over: 5_000n, currency: 'USD' },
    ]);
    expect(c.expiresAt).toBeUndefined();
    expect(c.recent.map((r) => [r.id, r.status, r.amount])).toEqual([[small.body.id, 'APPROVED', 1500n]]);
  });

  it('a quote: both currencies, the rate and the expiry', async () => {
    const q = await agent.api.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 30_000,
    });
    expect(q.status, q.text).toBe(201);
    const held = await agent.api.post(`/agents/me/quotes/${q.body.id}/execute`);
    expect(held.body.status, held.text).toBe('PENDING_APPROVAL');

    const c = await contextOf(held.body.id);
    expect(c.sending).toEqual({ amount: BigInt(q.body.totalSendingAmount), currency: 'USD' });
    expect(c.receiving).toEqual({ amount: BigInt(q.body.totalReceivingAmount), currency: 'EUR' });
    expect(c.exchangeRate).toBe(q.body.exchangeRate);
    expect(c.expiresAt?.toISOString()).toBe(new Date(q.body.expiresAt).toISOString());
    expect(c.payee).toMatchObject({ id: h.accounts.EUR, name: 'EUR account of Ada Lovelace' });
    expect(c.held[0]).toMatchObject({ rule: 'APPROVAL_THRESHOLD', threshold: 20_000n, currency: 'USD' });
    expect(c.recent.length).toBe(2);
  });
});

describe('holdReasons', () => {
  const base = {
    permissions: ['CREATE_TRANSFERS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 100_000n },
  } as unknown as AgentPolicy;
  const facts = { amount: 5000n, currency: 'USD', internalAccountId: 'InternalAccount:a' };
  const at = new Date('2026-01-01T00:00:00Z');

  it('names the default mode, an account rule, and the threshold with how far over', () => {
    expect(holdReasons(base, facts, at)).toEqual([]);
    expect(holdReasons({ ...base, defaultExecutionMode: 'APPROVAL_REQUIRED' }, facts, at)).toEqual([
      { rule: 'APPROVAL_REQUIRED', scope: 'POLICY' },
    ]);
    const ruled = {
      ...base,
      accountRestrictions: { accountRules: [{ accountId: 'InternalAccount:a', executionMode: 'APPROVAL_REQUIRED' }] },
    } as unknown as AgentPolicy;
    expect(holdReasons(ruled, facts, at)).toEqual([{ rule: 'APPROVAL_REQUIRED', scope: 'ACCOUNT_RULE' }]);
    // An account rule in AUTO overrides a default that requires approval.
    const autoRule = {
      ...base,
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      accountRestrictions: { accountRules: [{ accountId: 'InternalAccount:a', executionMode: 'AUTO' }] },
    } as unknown as AgentPolicy;
    expect(holdReasons(autoRule, facts, at)).toEqual([]);
    const thr = { ...base, approvalThresholds: { currency: 'USD', amount: 4000n } } as AgentPolicy;
    expect(holdReasons(thr, facts, at)).toEqual([
      { rule: 'APPROVAL_THRESHOLD', amount: 5000n, threshold: 4000n, over: 1000n, currency: 'USD' },
    ]);
    expect(holdReasons({ ...thr, approvalThresholds: { currency: 'USD', amount: 5000n } }, facts, at)).toEqual([]);
  });
});
