import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import { Api, expectError, newPlatform, type ApiResponse, type Json, type TestPlatform } from '@/tests/support/api';

// Every non-empty set of permissions a caller may hold against every token operation, over HTTP.
// The rule: token operations need MANAGE, and a caller may create, delete or rotate only a token
// whose every permission it holds itself. A refusal is 403 FORBIDDEN and changes no token: the
// platform's token rows are the same and the target's secret still authenticates.
const SUBSETS: Permission[][] = [
  ['VIEW'],
  ['TRANSACT'],
  ['MANAGE'],
  ['VIEW', 'TRANSACT'],
  ['VIEW', 'MANAGE'],
  ['TRANSACT', 'MANAGE'],
  ['VIEW', 'TRANSACT', 'MANAGE'],
];

interface Target {
  id: string;
  api: Api;
}

interface Case {
  name: string;
  needs: Permission[];
  status: number;
  /** The permissions of a token made (by the all-permission token) for the operation to act on. */
  target?: Permission[];
  run: (api: Api, target: Target | undefined) => Promise<ApiResponse>;
}

const label = (s: Permission[]) => s.join('+');

const TOKEN_CASES: Case[] = [
  ...SUBSETS.map((s) => ({
    name: `create a ${label(s)} token`,
    needs: s,
    status: 201,
    run: (api: Api) => api.post('/tokens', { name: `table ${label(s)}`, permissions: s }),
  })),
  ...SUBSETS.map((s) => ({
    name: `delete a ${label(s)} token`,
    needs: s,
    status: 204,
    target: s,
    run: (api: Api, t: Target | undefined) => api.delete(`/tokens/${t!.id}`),
  })),
  ...SUBSETS.map((s) => ({
    name: `rotate the secret of a ${label(s)} token`,
    needs: s,
    status: 200,
    target: s,
    run: (api: Api, t: Target | undefined) => api.post(`/tokens/${t!.id}/rotate`, { overlapSeconds: 0 }),
  })),
];

let p: TestPlatform;
const callers = new Map<string, Api>();
beforeAll(async () => {
  p = await newPlatform();
  for (const s of SUBSETS) callers.set(label(s), await p.withPermissions(...s));
});

async function makeTarget(permissions: Permission[]): Promise<Target> {
  const made = await p.api.post('/tokens', { name: 'target', permissions });
  expect(made.status, made.text).toBe(201);
  return { id: made.body.id, api: new Api({ clientId: made.body.clientId, clientSecret: made.body.clientSecret }) };
}

const snapshot = async (): Promise<Json> =>
  db().apiToken.findMany({ where: { platformId: p.platformId }, orderBy: { id: 'asc' } });

describe.each(SUBSETS.map((s) => [label(s), s] as const))('a %s token', (name, held) => {
  it.each(TOKEN_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const target = c.target ? await makeTarget(c.target) : undefined;
    const before = await snapshot();
    const res = await c.run(callers.get(name)!, target);
    const allowed = ['MANAGE' as const, ...c.needs].every((x) => held.includes(x));
    if (allowed) {
      expect(res.status, res.text).toBe(c.status);
      return;
    }
    expectError(res, 403, 'FORBIDDEN');
    expect(await snapshot()).toEqual(before);
    if (target) expect((await target.api.get(`/tokens/${target.id}`)).status).not.toBe(401);
  });
});
