import type { Actor } from '../core/context';
import { clockOf } from '../core/clock';
import { DomainError } from '../core/errors';
import { generateSecret } from '../core/crypto/secrets';
import { tag } from '../core/crypto/vault';
import { sharedCache } from '../core/shared-cache';
import * as repo from './repository';
import { db } from '@/lib/core/db';

// Agent access tokens (AgentAuth bearer): 256 random bits, shown once at device-code redemption
// and stored only as a keyed hash. The agent a token names, and the agent's row (policy, paused),
// are cached per process; every change to an agent (pause, policy, delete) announces topic
// `agent` (lib/core/invalidation.ts), which drops both in every server process before the
// change's request answers — so a paused or deleted agent is refused at once everywhere.
export type AgentActor = Extract<Actor, { kind: 'agent' }>;

const TOKEN_PREFIX = 'cat_';
export const newAccessToken = () => `${TOKEN_PREFIX}${generateSecret(32)}`;
export const tokenHash = (token: string) => tag(token, 'agent-access-token');

const actors = sharedCache<AgentActor>('agents.tokens', 5_000, {
  agent: (id, _key, a) => a.agentId === id,
  platform: (platformId, _key, a) => a.platformId === platformId,
});

const rows = sharedCache<repo.AgentRow>('agents.rows', 5_000, {
  agent: (id, key) => key === id,
  platform: (platformId, _key, a) => a.platformId === platformId,
});

/** The agent actor of a bearer token; null for an unknown, revoked or deleted agent's token. */
export async function resolveAgentToken(token: string): Promise<AgentActor | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const key = tokenHash(token);
  const cached = actors.get(key);
  if (cached) return cached;
  const stamp = actors.stamp();
  const agent = await repo.findByTokenHash(key);
  if (!agent) return null;
  const actor: AgentActor = {
    kind: 'agent',
    platformId: agent.platformId,
    agentId: agent.id,
    customerId: agent.customerId,
    ...clockOf(agent),
  };
  actors.set(key, actor, stamp);
  return actor;
}

/**
 * The calling agent as it is now. Deleted since the token was read: 401. Paused: 403, except for
 * reading its own profile (`allowPaused`).
 */
export async function callingAgent(actor: Actor, opts: { allowPaused?: boolean } = {}): Promise<repo.AgentRow> {
  if (actor.kind !== 'agent') throw new DomainError('UNAUTHORIZED', 'This operation takes an agent access token');
  let row = rows.get(actor.agentId);
  if (!row) {
    const stamp = rows.stamp();
    row = (await repo.findAgentUnscoped(actor.agentId, db())) ?? undefined;
    if (row) rows.set(row.id, row, stamp);
  }
  if (!row || !row.tokenHash)
    throw new DomainError('UNAUTHORIZED', 'Agent access token is invalid, expired or revoked');
  if (row.isPaused && !opts.allowPaused)
    throw new DomainError('FORBIDDEN', `Agent ${row.id} is paused: the platform must resume it first`, {
      reason: 'AGENT_PAUSED',
    });
  return row;
}
