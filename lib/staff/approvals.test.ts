import { beforeAll, describe, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { connectedAgent, policy, type TestAgent } from '@/lib/agents/testing';
import { listApprovals } from '@/lib/agents/approvals';
import { runAs } from '@/lib/core/context';
import { historyOf } from './audit';
import * as ops from './operations';
import * as staff from './service';
import type { StaffActor } from './roles';
import { db } from '@/lib/core/db';

// The console's approve and reject of agent actions: the API's own service under the staff
// actor, role-checked and audited, moving the money once and nothing on a rejection.
let p: TestPlatform;
let h: Holder;
let ext: string;
let agent: TestAgent;
let n = 0;

async function member(role: 'viewer' | 'operator'): Promise<StaffActor> {
  const email = `${role}-${process.pid}-${Date.now()}-${++n}@approvals.example`;
  const { user } = await staff.createUser(p.platformId, { email, role, password: 'a-long-enough-password' }, db());
  const { sessionId } = await staff.signIn(user.email, 'a-long-enough-password');
  return (await staff.actorOf(sessionId))!;
}

async function held(amount: number): Promise<{ id: string; transaction: { id: string } }> {
  const res = await agent.api.post('/agents/me/transfer-out', {
    source: { accountId: h.accounts.USD },
    destination: { accountId: ext },
    amount,
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('PENDING_APPROVAL');
  return res.body;
}

beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Ada Approver', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000);
  ext = await externalAccount(p, h.customerId, 'USD', '321');
  agent = await connectedAgent(p, h.customerId, policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
});

describe('console approvals of agent actions', () => {
  it('approve moves the money once; a second approval is refused; audited on the action', async () => {
    const operator = await member('operator');
    const action = await held(2500);
    const before = await balanceOf(p, h.accounts.USD);
    const queue = await runAs(operator, () => listApprovals(operator, { limit: 20, sortOrder: 'asc' }));
    expect(queue.data.map((a) => a.id)).toContain(action.id);

    const approved = await ops.approveAgentAction(operator, action.id);
    expect(approved.status).toBe('APPROVED');
    expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 2500n);

    await expect(ops.approveAgentAction(operator, action.id)).rejects.toMatchObject({
      code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    });
    expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 2500n);
    // The API sees the same action approved (one code path).
    expect((await agent.api.get(`/agents/me/actions/${action.id}`)).body.status).toBe('APPROVED');
    const history = await historyOf(p.platformId, [action.id]);
    expect(history.map((e) => [e.action, e.staffEmail])).toEqual([['agent_action.approve', operator.email]]);
    await expectLedgerBalanced(p.platformId);
  });

  it('reject keeps the reason and moves nothing; a reason is required', async () => {
    const operator = await member('operator');
    const action = await held(3100);
    const before = await balanceOf(p, h.accounts.USD);
    await expect(ops.rejectAgentAction(operator, action.id, '   ')).rejects.toMatchObject({ code: 'INVALID_INPUT' });

    const rejected = await ops.rejectAgentAction(operator, action.id, 'Not a known supplier');
    expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReason: 'Not a known supplier' });
    expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
    await expect(ops.approveAgentAction(operator, action.id)).rejects.toMatchObject({
      code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    });
    expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
    const history = await historyOf(p.platformId, [action.id]);
    expect(history[0]).toMatchObject({ action: 'agent_action.reject', details: { reason: 'Not a known supplier' } });
    await expectLedgerBalanced(p.platformId);
  });

  it('a viewer may neither approve nor reject; the action stays pending', async () => {
    const viewer = await member('viewer');
    const action = await held(1200);
    const before = await balanceOf(p, h.accounts.USD);
    await expect(ops.approveAgentAction(viewer, action.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(ops.rejectAgentAction(viewer, action.id, 'no')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await agent.api.get(`/agents/me/actions/${action.id}`)).body.status).toBe('PENDING_APPROVAL');
    expect(await balanceOf(p, h.accounts.USD)).toEqual(before);
    expect(await historyOf(p.platformId, [action.id])).toEqual([]);
  });
});
