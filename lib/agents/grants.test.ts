import { beforeAll, expect, it } from 'vitest';
import { Api, expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { balanceOf, customerWithAccounts, fund, type Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { agentApi, createAgent, policy } from './testing';

// Issue 23, finding 1: a MANAGE-only token drained a customer by creating an AUTO agent that can
// CREATE_TRANSFERS, redeeming its device code and sending the balance out. Each step that hands
// an agent powers the caller does not hold is now refused, and nothing is left behind.
let p: TestPlatform;
let h: Holder;
let manager: Api;
const drain = { currency: 'USD', perTransactionLimit: 1_000_000_000, dailyLimit: null, monthlyLimit: null };

beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Dana Drained', ['USD']);
  await fund(p, h.accounts.USD, 500_000);
  manager = await p.withPermissions('MANAGE');
});

const agentsOf = async (customerId: string) =>
  (await p.api.get('/agents', { query: { customerId, limit: 100 } })).body.data.map((a: { id: string }) => a.id);

it('a MANAGE-only token cannot make itself a money-moving agent (the reported drain)', async () => {
  const ext = await manager.post('/customers/external-accounts', {
    customerId: h.customerId,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '400000000555',
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      bankName: 'Attacker Bank',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Mallory',
        countryOfResidence: 'US',
        address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
      },
    },
  });
  expect(ext.status, ext.text).toBe(201);
  const before = await agentsOf(h.customerId);
  const made = await manager.post('/agents', {
    name: 'drain',
    customerId: h.customerId,
    policy: { permissions: ['CREATE_TRANSFERS'], defaultExecutionMode: 'AUTO', spendingLimits: drain },
  });
  expectError(made, 403, 'FORBIDDEN');
  expect(made.body.details).toMatchObject({ reason: 'PERMISSION_NOT_HELD', missingPermissions: ['TRANSACT'] });
  expect(await agentsOf(h.customerId)).toEqual(before);
  expect(await db().agentDeviceCode.count({ where: { platformId: p.platformId } })).toBe(0);
  expect((await balanceOf(p, h.accounts.USD)).available).toBe(500_000n);
});

it('nor take over, widen or loosen an existing money-moving agent', async () => {
  const { agent, deviceCode } = await createAgent(p, h.customerId, policy({ spendingLimits: { ...drain } }));
  const row = async () => db().agent.findUnique({ where: { id: agent.id } });
  const codes = async () =>
    db().agentDeviceCode.findMany({ where: { agentId: agent.id }, orderBy: { createdAt: 'asc' } });
  const [agentBefore, codesBefore] = [await row(), await codes()];

  // A new device code would be redeemed by whoever asked for it.
  expectError(await manager.post(`/agents/${agent.id}/device-codes`), 403, 'FORBIDDEN');
  expectError(
    await manager.patch(`/agents/${agent.id}/policy`, { spendingLimits: { perTransactionLimit: 10_000_000_000 } }),
    403,
    'FORBIDDEN',
  );
  expectError(await manager.patch(`/agents/${agent.id}/policy`, { defaultExecutionMode: 'AUTO' }), 403, 'FORBIDDEN');
  expect(await row()).toEqual(agentBefore);
  expect(await codes()).toEqual(codesBefore);
  // The code the platform handed out still connects the platform's own agent software.
  const redeemed = await new Api().post(`/agents/device-codes/${deviceCode.code}/redeem`);
  expect(redeemed.status, redeemed.text).toBe(200);
  expect((await agentApi(redeemed.body.accessToken).get('/agents/me')).body.id).toBe(agent.id);
});

it('an agent without money-moving permissions stays within reach of a MANAGE+VIEW token', async () => {
  const both = await p.withPermissions('VIEW', 'MANAGE');
  const viewOnly = { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: drain };
  const made = await both.post('/agents', { name: 'reader', customerId: h.customerId, policy: viewOnly });
  expect(made.status, made.text).toBe(201);
  const id = made.body.agent.id;
  // Raising it to move money needs TRANSACT as well.
  const up = await both.patch(`/agents/${id}/policy`, { permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'] });
  expectError(up, 403, 'FORBIDDEN');
  expect((await p.api.get(`/agents/${id}`)).body.policy.permissions).toEqual(['VIEW_TRANSACTIONS']);
  const rename = await both.patch(`/agents/${id}`, { name: 'still a reader' });
  expect(rename.status, rename.text).toBe(200);
  expect((await both.delete(`/agents/${id}`)).status).toBe(204);
});
