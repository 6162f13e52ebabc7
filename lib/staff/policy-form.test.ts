import { beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, type Holder } from '@/tests/support/money';
import { createAgent, policy } from '@/lib/agents/testing';
import { db } from '@/lib/core/db';
import { parseMajorAmount } from '@/lib/core/amount-input';
import * as cmd from './commands';
import * as staff from './service';
import type { StaffActor } from './roles';

// The console's policy form as its command receives it: amounts the person typed in major units
// ("1,000.00"), read by the shared parser into minor units, plus the fields the form newly covers
// (permissions, the approval threshold, the accounts the agent may use), seen through the API.
let p: TestPlatform;
let h: Holder;
let admin: StaffActor;

beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Polly Policy', ['USD']);
  const email = `admin-${process.pid}-${Date.now()}@policy.example`;
  const { user } = await staff.createUser(
    p.platformId,
    { email, role: 'admin', password: 'a-long-enough-password' },
    db(),
  );
  admin = (await staff.actorOf((await staff.signIn(user.email, 'a-long-enough-password')).sessionId))!;
});

const minor = (typed: string, currency = 'USD') => {
  const r = parseMajorAmount(typed, currency);
  if (!r.ok) throw new Error(r.message);
  return r.minor.toString();
};
const send = (agentId: string, form: cmd.PolicyForm) =>
  cmd.changeAgentPolicy.run(admin, cmd.changeAgentPolicy.input.parse({ agentId, form }));

it('saves limits typed as "1,000.00", the threshold, permissions and allowed accounts; keeps account rules', async () => {
  const rule = { accountId: h.accounts.USD, executionMode: 'APPROVAL_REQUIRED', perTransactionLimit: 5_000 };
  const { agent } = await createAgent(p, h.customerId, policy({ accountRestrictions: { accountRules: [rule] } }));
  await send(agent.id, {
    perTransactionLimit: minor('1,000.00'),
    dailyLimit: minor('2,500.50'),
    approvalThreshold: minor('200'),
    approvalThresholdCurrency: 'USD',
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES'],
    allowedAccountIds: [h.accounts.USD],
  });
  const res = await p.api.get(`/agents/${agent.id}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.policy).toMatchObject({
    permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES'],
    spendingLimits: { currency: 'USD', perTransactionLimit: 100_000, dailyLimit: 250_050 },
    approvalThresholds: { currency: 'USD', amount: 20_000 },
    accountRestrictions: { allowedAccountIds: [h.accounts.USD], accountRules: [rule] },
  });

  // Emptied: no threshold, any account (the rules still kept).
  await send(agent.id, { approvalThreshold: '', approvalThresholdCurrency: 'USD', allowedAccountIds: null });
  const after = await p.api.get(`/agents/${agent.id}`);
  expect(after.body.policy.approvalThresholds?.amount ?? null).toBeNull();
  expect(after.body.policy.accountRestrictions.allowedAccountIds ?? null).toBeNull();
  expect(after.body.policy.accountRestrictions.accountRules).toEqual([rule]);
});

it('refuses what is not minor units or a known permission on its field, changing nothing', async () => {
  const { agent } = await createAgent(p, h.customerId);
  const before = (await p.api.get(`/agents/${agent.id}`)).body;
  const refused = await send(agent.id, { perTransactionLimit: '1,000.00' }).catch((e) => e);
  expect(refused).toMatchObject({ code: 'INVALID_INPUT' });
  expect(refused.details.errors[0].field).toContain('perTransactionLimit');
  await expect(send(agent.id, { permissions: ['SPEND_EVERYTHING'] })).rejects.toMatchObject({
    code: 'INVALID_INPUT',
  });
  expect((await p.api.get(`/agents/${agent.id}`)).body).toEqual(before);
});
