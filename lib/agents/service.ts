import { now } from '../core/clock';
import { transaction, db } from '../core/db';
import { fieldError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { changing } from '../core/invalidation';
import { pageOf } from '../core/list';
import * as customers from '../customers/repository';
import * as repo from './repository';
import { issueCode } from './device-codes';
import { requireGrantable, requireOver } from './grants';
import { checkPolicy, mergePolicy, policyFromJson, policyToJson } from './policy';
import { toAgent } from './presenter';
import type { AgentListQuery, AgentPolicy, AgentPolicyUpdate } from './schema';

// The platform's side of agents: create, read, rename, pause, change the policy, delete. Every
// change that an agent's requests depend on announces topic `agent`, so it holds at once in every
// server process (lib/agents/auth.ts caches). The caller must hold every platform permission the
// agent exercises (lib/agents/grants.ts), checked on the row the change is made to.
const agentNotFound = (id: string) => notFound('REFERENCE_NOT_FOUND', `Agent ${id}`);
const announce = (agentId: string) => [{ topic: 'agent', key: agentId }];

export async function create(platformId: string, input: { name: string; customerId: string; policy: AgentPolicy }) {
  const policy = checkPolicy(input.policy);
  requireGrantable(policy);
  return transaction(async (tx) => {
    const customer = await customers.findById(platformId, input.customerId, tx);
    if (!customer || customer.deletedAt)
      throw fieldError('customerId', `Customer ${input.customerId} not found (or deleted)`);
    const at = now();
    const row = await repo.insertAgent(
      {
        id: newId('Agent'),
        platformId,
        customerId: customer.id,
        name: input.name,
        policy: policyToJson(policy) as object,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    const deviceCode = await issueCode(tx, platformId, row.id);
    return { agent: await toAgent(row, tx), deviceCode };
  });
}

export async function get(platformId: string, id: string) {
  const row = await repo.findAgent(platformId, id, db());
  if (!row) throw agentNotFound(id);
  return toAgent(row, db());
}

export async function list(platformId: string, q: AgentListQuery) {
  const date = (s?: string) => (s ? new Date(s) : undefined);
  const filter = {
    customerId: q.customerId,
    isPaused: q.isPaused,
    isConnected: q.isConnected,
    createdAfter: date(q.createdAfter),
    createdBefore: date(q.createdBefore),
    updatedAfter: date(q.updatedAfter),
    updatedBefore: date(q.updatedBefore),
  };
  const listed = await repo.listAgents(platformId, filter, {
    limit: q.limit,
    cursor: q.cursor,
    filters: { ...filter },
  });
  const page = pageOf(listed, (r) => r);
  return { ...page, data: await Promise.all(page.data.map((r) => toAgent(r, db()))) };
}

/** PATCH /agents/{agentId}: name and paused state; pausing holds in every process on return. */
export async function update(platformId: string, id: string, u: { name?: string; isPaused?: boolean }) {
  const row = await changing(announce(id), async (tx) => {
    const agent = await repo.lockAgent(id, tx);
    if (!agent || agent.platformId !== platformId) throw agentNotFound(id);
    requireOver(id, policyFromJson(agent.policy));
    return repo.updateAgent(id, { ...u, updatedAt: now() }, tx);
  });
  return toAgent(row, db());
}

/** PATCH /agents/{agentId}/policy: a partial update, in force everywhere when it answers. */
export async function updatePolicy(platformId: string, id: string, u: AgentPolicyUpdate) {
  const row = await changing(announce(id), async (tx) => {
    const agent = await repo.lockAgent(id, tx);
    if (!agent || agent.platformId !== platformId) throw agentNotFound(id);
    const current = policyFromJson(agent.policy);
    const policy = mergePolicy(current, u, now());
    requireOver(id, current, policy);
    return repo.updateAgent(id, { policy: policyToJson(policy) as object, updatedAt: now() }, tx);
  });
  return toAgent(row, db());
}

/** DELETE /agents/{agentId}: the token stops working in every process before this returns. */
export async function remove(platformId: string, id: string): Promise<void> {
  await changing(announce(id), async (tx) => {
    const agent = await repo.lockAgent(id, tx);
    if (!agent || agent.platformId !== platformId) throw agentNotFound(id);
    requireOver(id, policyFromJson(agent.policy));
    await repo.retireCodes(id, 'REVOKED', tx);
    const at = now();
    await repo.updateAgent(id, { deletedAt: at, tokenHash: null, updatedAt: at }, tx);
  });
}
