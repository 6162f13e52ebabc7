import { beforeAll, expect, it } from 'vitest';
import { Api, expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund, advance, type Holder } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { agentApi, connectedAgent, createAgent, policy, redeem } from './testing';

// The platform's side of agents and the device-code flow, over HTTP; every answer is checked
// against the reference by the test client.
let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Mia Manager', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000);
});

it('creates an agent with its policy, zero usage and a device code; lists, filters and reads it', async () => {
  const { agent, deviceCode } = await createAgent(p, h.customerId);
  expect(agent).toMatchObject({
    name: 'Test agent',
    customerId: h.customerId,
    isPaused: false,
    isConnected: false,
    policy: policy(),
    usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 },
  });
  expect(deviceCode).toMatchObject({ agentId: agent.id, redeemed: false });
  expect(deviceCode.code).toMatch(/^CORRIDOR-AGENT-[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
  expect((await p.api.get(`/agents/${agent.id}`)).body).toEqual(agent);
  const list = await p.api.get('/agents', { query: { customerId: h.customerId, isConnected: false } });
  expect(list.status, list.text).toBe(200);
  expect(list.body.data.map((a: { id: string }) => a.id)).toContain(agent.id);
  const connected = await p.api.get('/agents', { query: { isConnected: true, customerId: h.customerId } });
  expect(connected.body.data.map((a: { id: string }) => a.id)).not.toContain(agent.id);
  // The code itself is never stored.
  const stored = await db().agentDeviceCode.findMany({ where: { agentId: agent.id } });
  expect(JSON.stringify(stored)).not.toContain(deviceCode.code);
});

it('refuses an unknown customer, a bad policy and unknown agents', async () => {
  const bad = await p.api.post('/agents', { name: 'x', customerId: 'Customer:nope', policy: policy() });
  expectError(bad, 400, 'INVALID_INPUT');
  const noLimits = await p.api.post('/agents', {
    name: 'x',
    customerId: h.customerId,
    policy: { permissions: [], defaultExecutionMode: 'AUTO' },
  });
  expectError(noLimits, 400, 'INVALID_INPUT');
  expectError(await p.api.get('/agents/Agent:00000000-0000-0000-0000-000000000000'), 404, 'REFERENCE_NOT_FOUND');
  const other = await newPlatform();
  const { agent } = await createAgent(p, h.customerId);
  expectError(await other.api.get(`/agents/${agent.id}`), 404, 'REFERENCE_NOT_FOUND');
});

it('device code: redeemed once for a token shown once and stored only as a keyed hash', async () => {
  const { agent, deviceCode } = await createAgent(p, h.customerId);
  const status = await p.api.get(`/agents/device-codes/${deviceCode.code}/status`);
  expect(status.body).toEqual({ code: deviceCode.code, redeemed: false });
  const res = await new Api().post(`/agents/device-codes/${deviceCode.code}/redeem`);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ agentId: agent.id, agentName: 'Test agent', policy: policy() });
  const token = res.body.accessToken as string;
  expect((await p.api.get(`/agents/device-codes/${deviceCode.code}/status`)).body.redeemed).toBe(true);
  expect((await p.api.get(`/agents/${agent.id}`)).body.isConnected).toBe(true);
  // Single use.
  expectError(await new Api().post(`/agents/device-codes/${deviceCode.code}/redeem`), 400, 'INVALID_INPUT');
  const row = await db().agent.findUnique({ where: { id: agent.id } });
  expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.stringify(row)).not.toContain(token);
  const me = await agentApi(token).get('/agents/me');
  expect(me.status, me.text).toBe(200);
  expect(me.body.id).toBe(agent.id);
  // A connected agent keeps its connection: no new code.
  expectError(await p.api.post(`/agents/${agent.id}/device-codes`), 409, 'CONFLICT');
});

it('regenerating a code invalidates the earlier unredeemed one', async () => {
  const { agent, deviceCode } = await createAgent(p, h.customerId);
  const fresh = await p.api.post(`/agents/${agent.id}/device-codes`);
  expect(fresh.status, fresh.text).toBe(201);
  expect(fresh.body.code).not.toBe(deviceCode.code);
  const old = await new Api().post(`/agents/device-codes/${deviceCode.code}/redeem`);
  expectError(old, 400, 'INVALID_INPUT');
  expect(old.body.details.reason).toBe('SUPERSEDED');
  await redeem(fresh.body.code);
});

it('a code expires (on the platform clock); unknown and foreign codes are not found', async () => {
  const q = await newPlatform();
  const c = await customerWithAccounts(q, 'Eve Expiry', ['USD']);
  const { deviceCode } = await createAgent(q, c.customerId);
  await advance(q, 24 * 3600 + 5);
  const res = await new Api().post(`/agents/device-codes/${deviceCode.code}/redeem`);
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.reason).toBe('EXPIRED');
  expectError(
    await new Api().post('/agents/device-codes/CORRIDOR-AGENT-AAAA-BBBB-CCCC-DDDD/redeem'),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.get(`/agents/device-codes/${deviceCode.code}/status`), 404, 'REFERENCE_NOT_FOUND');
});

it('agent endpoints need the agent bearer token', async () => {
  expectError(await new Api().get('/agents/me'), 401, 'UNAUTHORIZED');
  expectError(await p.api.get('/agents/me'), 401, 'UNAUTHORIZED');
  expectError(await agentApi('cat_not-a-token').get('/agents/me'), 401, 'UNAUTHORIZED');
  const a = await connectedAgent(p, h.customerId);
  // And platform endpoints refuse it.
  expectError(await p.api.get('/agents', { authorization: `Bearer ${a.token}` }), 401, 'UNAUTHORIZED');
});

it('pause, resume, policy change and delete hold at once', async () => {
  const a = await connectedAgent(p, h.customerId);
  const ext = await externalAccount(p, h.customerId, 'USD', '321');
  const send = () =>
    a.api.post('/agents/me/transfer-out', {
      source: { accountId: h.accounts.USD },
      destination: { accountId: ext },
      amount: 100,
    });
  expect((await send()).status).toBe(201);
  const paused = await p.api.patch(`/agents/${a.id}`, { isPaused: true, name: 'Renamed' });
  expect(paused.body).toMatchObject({ isPaused: true, name: 'Renamed' });
  const refused = await send();
  expectError(refused, 403, 'FORBIDDEN');
  expect(refused.body.details.reason).toBe('AGENT_PAUSED');
  expect((await a.api.get('/agents/me')).body.isPaused).toBe(true);
  expect((await p.api.get('/agents', { query: { isPaused: true, customerId: h.customerId } })).body.data).toHaveLength(
    1,
  );
  await p.api.patch(`/agents/${a.id}`, { isPaused: false });
  expect((await send()).status).toBe(201);
  // A partial policy update: permissions replaced, other limits kept.
  const changed = await p.api.patch(`/agents/${a.id}/policy`, {
    permissions: ['VIEW_TRANSACTIONS'],
    spendingLimits: { dailyLimit: 200 },
  });
  expect(changed.status, changed.text).toBe(200);
  expect(changed.body.policy.spendingLimits).toEqual({
    currency: 'USD',
    perTransactionLimit: 100_000,
    dailyLimit: 200,
    monthlyLimit: 5_000_000,
  });
  expect(changed.body.usage).toMatchObject({ dailyTransactionCount: 2, dailySpend: 200 });
  expectError(await send(), 403, 'FORBIDDEN');
  expect((await a.api.get('/agents/me/transactions')).status).toBe(200);
  // Delete: the token stops working, the agent is gone.
  const del = await p.api.delete(`/agents/${a.id}`);
  expect(del.status, del.text).toBe(204);
  expectError(await a.api.get('/agents/me'), 401, 'UNAUTHORIZED');
  expectError(await a.api.get('/agents/me/transactions'), 401, 'UNAUTHORIZED');
  expectError(await p.api.get(`/agents/${a.id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await p.api.delete(`/agents/${a.id}`), 404, 'REFERENCE_NOT_FOUND');
});

it('the served OpenAPI document lists the agent operations', async () => {
  const doc = await p.api.get('/openapi.json');
  expect(doc.status).toBe(200);
  const paths = doc.body.paths as Record<string, Record<string, { security?: unknown[] }>>;
  for (const path of [
    '/agents',
    '/agents/approvals',
    '/agents/{agentId}',
    '/agents/{agentId}/policy',
    '/agents/{agentId}/device-codes',
    '/agents/{agentId}/actions/{actionId}/approve',
    '/agents/{agentId}/actions/{actionId}/reject',
    '/agents/device-codes/{code}/status',
    '/agents/device-codes/{code}/redeem',
    '/agents/me',
    '/agents/me/transactions',
    '/agents/me/transactions/{transactionId}',
    '/agents/me/quotes',
    '/agents/me/quotes/{quoteId}',
    '/agents/me/quotes/{quoteId}/execute',
    '/agents/me/actions',
    '/agents/me/actions/{actionId}',
    '/agents/me/transfer-in',
    '/agents/me/transfer-out',
    '/agents/me/internal-accounts',
    '/agents/me/external-accounts',
    '/agents/me/external-accounts/{externalAccountId}',
  ])
    expect(paths[path], path).toBeDefined();
  expect(paths['/agents/me'].get.security).toEqual([{ AgentAuth: [] }]);
  expect(paths['/agents/device-codes/{code}/redeem'].post.security).toEqual([]);
});

it('platform endpoints take the platform permissions', async () => {
  const viewer = await p.withPermissions('VIEW');
  expectError(
    await viewer.post('/agents', { name: 'x', customerId: h.customerId, policy: policy() }),
    403,
    'FORBIDDEN',
  );
  expect((await viewer.get('/agents')).status).toBe(200);
});
