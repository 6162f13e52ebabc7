import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import {
  expectError,
  newPlatform,
  type Api,
  type ApiResponse,
  type Json,
  type TestPlatform,
} from '@/tests/support/api';
import { customerWithAccounts, type Holder } from '@/tests/support/money';
import { createAgent } from './testing';

// Every non-empty set of platform permissions against every operation that creates, changes,
// reconnects or removes an agent. The rule, written out here independently of the code: the
// management operation needs MANAGE, and the caller must hold every platform permission the
// agent exercises before and after — VIEW_TRANSACTIONS and MANAGE_EXTERNAL_ACCOUNTS read (VIEW),
// MANAGE_EXTERNAL_ACCOUNTS adds accounts (MANAGE), quotes and transfers move money (TRANSACT).
// A refusal is 403 FORBIDDEN and leaves the agent, its device codes and the agent list as they were.
const SUBSETS: Permission[][] = [
  ['VIEW'],
  ['TRANSACT'],
  ['MANAGE'],
  ['VIEW', 'TRANSACT'],
  ['VIEW', 'MANAGE'],
  ['TRANSACT', 'MANAGE'],
  ['VIEW', 'TRANSACT', 'MANAGE'],
];

const KINDS: Record<string, { permissions: string[]; needs: Permission[] }> = {
  'no permissions': { permissions: [], needs: [] },
  VIEW_TRANSACTIONS: { permissions: ['VIEW_TRANSACTIONS'], needs: ['VIEW'] },
  CREATE_QUOTES: { permissions: ['CREATE_QUOTES'], needs: ['TRANSACT'] },
  EXECUTE_QUOTES: { permissions: ['EXECUTE_QUOTES'], needs: ['TRANSACT'] },
  CREATE_TRANSFERS: { permissions: ['CREATE_TRANSFERS'], needs: ['TRANSACT'] },
  MANAGE_EXTERNAL_ACCOUNTS: { permissions: ['MANAGE_EXTERNAL_ACCOUNTS'], needs: ['VIEW', 'MANAGE'] },
  'every permission': {
    permissions: [
      'VIEW_TRANSACTIONS',
      'CREATE_TRANSFERS',
      'CREATE_QUOTES',
      'EXECUTE_QUOTES',
      'MANAGE_EXTERNAL_ACCOUNTS',
    ],
    needs: ['VIEW', 'TRANSACT', 'MANAGE'],
  },
};

const policyOf = (kind: string, mode = 'AUTO') => ({
  permissions: KINDS[kind].permissions,
  defaultExecutionMode: mode,
  spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 5000, monthlyLimit: 50_000 },
});

interface Case {
  name: string;
  /** Platform permissions the caller needs besides the route's MANAGE. */
  needs: Permission[];
  status: number;
  /** Made with the all-permission token before the call. */
  agent?: { kind: string; paused?: boolean };
  run: (api: Api, agentId: string) => Promise<ApiResponse>;
}

const needsOf = (...kinds: string[]) => [...new Set(kinds.flatMap((k) => KINDS[k].needs))];

const CASES: Case[] = [
  ...Object.keys(KINDS).map((kind) => ({
    name: `create an agent with ${kind}`,
    needs: needsOf(kind),
    status: 201,
    run: (api: Api) => api.post('/agents', { name: 'table', customerId: h.customerId, policy: policyOf(kind) }),
  })),
  ...Object.keys(KINDS)
    .filter((k) => k !== 'every permission')
    .map((kind) => ({
      name: `raise a ${kind} agent to every permission`,
      needs: needsOf(kind, 'every permission'),
      status: 200,
      agent: { kind },
      run: (api: Api, id: string) =>
        api.patch(`/agents/${id}/policy`, { permissions: KINDS['every permission'].permissions }),
    })),
  ...['no permissions', 'VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'].map((kind) => ({
    name: `lower an every-permission agent to ${kind}`,
    needs: needsOf('every permission', kind),
    status: 200,
    agent: { kind: 'every permission' },
    run: (api: Api, id: string) => api.patch(`/agents/${id}/policy`, { permissions: KINDS[kind].permissions }),
  })),
  {
    name: 'raise the limit of a CREATE_TRANSFERS agent',
    needs: needsOf('CREATE_TRANSFERS'),
    status: 200,
    agent: { kind: 'CREATE_TRANSFERS' },
    run: (api, id) => api.patch(`/agents/${id}/policy`, { spendingLimits: { perTransactionLimit: 10 ** 12 } }),
  },
  ...['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'].flatMap((kind) => [
    {
      name: `new device code for a ${kind} agent`,
      needs: needsOf(kind),
      status: 201,
      agent: { kind },
      run: (api: Api, id: string) => api.post(`/agents/${id}/device-codes`),
    },
    {
      name: `pause a ${kind} agent`,
      needs: needsOf(kind),
      status: 200,
      agent: { kind },
      run: (api: Api, id: string) => api.patch(`/agents/${id}`, { isPaused: true }),
    },
    {
      name: `resume a ${kind} agent`,
      needs: needsOf(kind),
      status: 200,
      agent: { kind, paused: true },
      run: (api: Api, id: string) => api.patch(`/agents/${id}`, { isPaused: false }),
    },
    {
      name: `delete a ${kind} agent`,
      needs: needsOf(kind),
      status: 204,
      agent: { kind },
      run: (api: Api, id: string) => api.delete(`/agents/${id}`),
    },
  ]),
];

let p: TestPlatform;
let h: Holder;
const callers = new Map<string, Api>();
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Tabitha Table', ['USD']);
  for (const s of SUBSETS) callers.set(s.join('+'), await p.withPermissions(...s));
});

/** What a refusal must leave untouched: the customer's agents, this agent's row and its codes. */
async function snapshot(agentId: string | undefined): Promise<Json> {
  const agents = await db().agent.findMany({ where: { customerId: h.customerId }, orderBy: { id: 'asc' } });
  const codes = agentId
    ? await db().agentDeviceCode.findMany({ where: { agentId }, orderBy: { codeHash: 'asc' } })
    : [];
  return { agents, codes };
}

async function prepare(c: Case): Promise<string | undefined> {
  if (!c.agent) return undefined;
  const { agent } = await createAgent(p, h.customerId, policyOf(c.agent.kind));
  if (c.agent.paused) expect((await p.api.patch(`/agents/${agent.id}`, { isPaused: true })).status).toBe(200);
  return agent.id;
}

describe.each(SUBSETS.map((s) => [s.join('+'), s] as const))('a %s token', (label, held) => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const agentId = await prepare(c);
    const before = await snapshot(agentId);
    const res = await c.run(callers.get(label)!, agentId ?? '');
    const allowed = ['MANAGE' as const, ...c.needs].every((x) => held.includes(x));
    if (allowed) {
      expect(res.status, res.text).toBe(c.status);
      return;
    }
    expectError(res, 403, 'FORBIDDEN');
    expect(await snapshot(agentId)).toEqual(before);
  });
});
