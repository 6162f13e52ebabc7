import { beforeAll, expect, it } from 'vitest';
import { Api, expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, type Holder } from '@/tests/support/money';
import { connectedAgent, createAgent, policy, redeem } from '@/lib/agents/testing';
import { historyOf } from './audit';
import * as ops from './operations';
import * as staff from './service';
import type { StaffActor } from './roles';
import { db } from '@/lib/core/db';

// The console's agent operations: pause and resume (operators), the policy (admins, with the
// API's own validation), a new device code (operators; shown once, never in the audit trail),
// each seen through the API and recorded on the agent.
let p: TestPlatform;
let h: Holder;
let n = 0;

async function member(role: 'viewer' | 'operator' | 'admin'): Promise<StaffActor> {
  const email = `${role}-${process.pid}-${Date.now()}-${++n}@agents.example`;
  const { user } = await staff.createUser(p.platformId, { email, role, password: 'a-long-enough-password' }, db());
  const { sessionId } = await staff.signIn(user.email, 'a-long-enough-password');
  return (await staff.actorOf(sessionId))!;
}

const apiAgent = async (id: string) => {
  const res = await p.api.get(`/agents/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Ada Agentkeeper', ['USD']);
});

it('a viewer is refused each operation, and nothing changes or is recorded', async () => {
  const viewer = await member('viewer');
  const { agent, deviceCode } = await createAgent(p, h.customerId);
  await expect(ops.setAgentPaused(viewer, agent.id, true)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  await expect(ops.changeAgentPolicy(viewer, agent.id, { spendingLimits: { dailyLimit: 1n } })).rejects.toMatchObject({
    code: 'FORBIDDEN',
  });
  await expect(ops.regenerateDeviceCode(viewer, agent.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  expect(await apiAgent(agent.id)).toEqual(agent);
  expect(await historyOf(p.platformId, [agent.id])).toEqual([]);
  // The first code still works: no new one was issued.
  expect(await redeem(deviceCode.code)).toBeTruthy();
});

it('an operator pauses and resumes an agent (seen through the API) but may not change its policy', async () => {
  const operator = await member('operator');
  const a = await connectedAgent(p, h.customerId);
  expect((await ops.setAgentPaused(operator, a.id, true)).isPaused).toBe(true);
  expect((await apiAgent(a.id)).isPaused).toBe(true);
  expectError(await a.api.get('/agents/me/transactions'), 403, 'FORBIDDEN');
  expect((await ops.setAgentPaused(operator, a.id, false)).isPaused).toBe(false);
  expect((await apiAgent(a.id)).isPaused).toBe(false);
  expect((await a.api.get('/agents/me/transactions')).status).toBe(200);

  await expect(ops.changeAgentPolicy(operator, a.id, { spendingLimits: { dailyLimit: 1n } })).rejects.toMatchObject({
    code: 'FORBIDDEN',
  });
  expect((await apiAgent(a.id)).policy).toEqual(policy());
  const history = await historyOf(p.platformId, [a.id]);
  expect(history.map((e) => [e.action, e.staffEmail, e.outcome])).toEqual([
    ['agent.resume', operator.email, 'DONE'],
    ['agent.pause', operator.email, 'DONE'],
  ]);
});

it('an admin changes the policy (seen through the API); an invalid one is refused and changes nothing', async () => {
  const admin = await member('admin');
  const { agent } = await createAgent(p, h.customerId);
  const changed = await ops.changeAgentPolicy(admin, agent.id, {
    defaultExecutionMode: 'APPROVAL_REQUIRED',
    spendingLimits: { dailyLimit: 123_456n, dailyTransactionLimit: 7 },
  });
  expect(changed.policy.spendingLimits.dailyLimit).toBe(123_456n);
  const seen = await apiAgent(agent.id);
  expect(seen.policy).toMatchObject({
    defaultExecutionMode: 'APPROVAL_REQUIRED',
    spendingLimits: { currency: 'USD', perTransactionLimit: 100_000, dailyLimit: 123_456, dailyTransactionLimit: 7 },
  });

  for (const bad of [
    { spendingLimits: { dailyLimit: -5n } },
    { spendingLimits: { monthlyLimit: 'lots' } },
    { defaultExecutionMode: 'SOMETIMES' },
    { spendingLimits: { currency: 'usd' } },
    { permissions: ['SPEND_EVERYTHING'] },
  ])
    await expect(ops.changeAgentPolicy(admin, agent.id, bad)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  const refused = await ops.changeAgentPolicy(admin, agent.id, { spendingLimits: { dailyLimit: -5n } }).catch((e) => e);
  expect(refused.details.errors[0].field).toContain('dailyLimit');
  expect(await apiAgent(agent.id)).toEqual(seen);

  const history = await historyOf(p.platformId, [agent.id]);
  expect(history).toHaveLength(1); // the refused changes left no entry
  expect(history[0]).toMatchObject({
    action: 'agent.policy.update',
    staffEmail: admin.email,
    outcome: 'DONE',
    // The limits with the currency they are in, so the console can show them in major units.
    details: {
      set: {
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        spendingLimits: { currency: 'USD', dailyLimit: '123456', dailyTransactionLimit: 7 },
      },
    },
  });
});

it('a new device code redeems, the earlier one no longer does, and the audit entry holds no code', async () => {
  const operator = await member('operator');
  const { agent, deviceCode } = await createAgent(p, h.customerId);
  const issued = await ops.regenerateDeviceCode(operator, agent.id);
  expect(issued.code).toMatch(/^CORRIDOR-AGENT-/);
  expect(issued.code).not.toBe(deviceCode.code);
  expect(issued.expiresAt.getTime()).toBeGreaterThan(Date.now());

  const old = await new Api().post(`/agents/device-codes/${deviceCode.code}/redeem`);
  expectError(old, 400, 'INVALID_INPUT');
  expect(await redeem(issued.code)).toBeTruthy();
  expect((await apiAgent(agent.id)).isConnected).toBe(true);

  const history = await historyOf(p.platformId, [agent.id]);
  expect(history.map((e) => e.action)).toEqual(['agent.device_code.regenerate']);
  expect(JSON.stringify(history)).not.toContain(issued.code);
  expect(history[0].details).toEqual({ expiresAt: issued.expiresAt.toISOString() });

  // A connected agent keeps its connection: no new code, no entry left behind.
  await expect(ops.regenerateDeviceCode(operator, agent.id)).rejects.toMatchObject({ code: 'CONFLICT' });
  expect(await historyOf(p.platformId, [agent.id])).toHaveLength(1);
});
