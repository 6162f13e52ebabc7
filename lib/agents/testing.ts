import { expect } from 'vitest';
import { Api, type Json, type TestPlatform } from '@/tests/support/api';

// Agents for tests: created through the platform API, connected by redeeming the device code as
// agent software would, and a client that calls /agents/me with the bearer token.
export const ALL_PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
];

export function policy(extra: Json = {}): Json {
  return {
    permissions: ALL_PERMISSIONS,
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 100_000, dailyLimit: 500_000, monthlyLimit: 5_000_000 },
    ...extra,
  };
}

export interface TestAgent {
  id: string;
  token: string;
  api: Api;
}

/** An Api that authenticates as an agent (Bearer), or sends `authorization` as given. */
export function agentApi(token: string): Api {
  const api = new Api();
  const request = api.request.bind(api);
  api.request = (method, path, opts = {}) =>
    request(method, path, { ...opts, authorization: opts.authorization ?? `Bearer ${token}` });
  return api;
}

export async function createAgent(p: TestPlatform, customerId: string, pol: Json = policy()) {
  const res = await p.api.post('/agents', { name: 'Test agent', customerId, policy: pol });
  expect(res.status, res.text).toBe(201);
  return res.body as { agent: Json; deviceCode: { code: string; agentId: string; expiresAt: string } };
}

export async function redeem(code: string) {
  const res = await new Api().post(`/agents/device-codes/${code}/redeem`);
  expect(res.status, res.text).toBe(200);
  return res.body.accessToken as string;
}

/** A connected agent of `customerId`. */
export async function connectedAgent(p: TestPlatform, customerId: string, pol: Json = policy()): Promise<TestAgent> {
  const { agent, deviceCode } = await createAgent(p, customerId, pol);
  const token = await redeem(deviceCode.code);
  return { id: agent.id, token, api: agentApi(token) };
}
