import { randomInt } from 'node:crypto';
import { addSeconds, nowFor, WALL_CLOCK } from '../core/clock';
import { now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { DomainError, notFound } from '../core/errors';
import { tag } from '../core/crypto/vault';
import { changing } from '../core/invalidation';
import * as platforms from '../platform/repository';
import * as repo from './repository';
import { newAccessToken, tokenHash } from './auth';
import { requireOver } from './grants';
import { policyFromJson } from './policy';

// Device codes connect agent software: the platform creates the agent (or regenerates a code)
// and hands the code to the software, which redeems it once for its access token. Codes are
// stored only as keyed hashes; a new code retires the agent's earlier unredeemed ones.
const CODE_LIFETIME_SECONDS = 24 * 3600;
// No 0/O, 1/I/L: read aloud or typed by a person. 16 characters of 32: 80 bits.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function newCode(): string {
  const groups = Array.from({ length: 4 }, () =>
    Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  );
  return `CORRIDOR-AGENT-${groups.join('-')}`;
}

const codeHash = (code: string) => tag(code.trim().toUpperCase(), 'agent-device-code');

export interface IssuedCode {
  code: string;
  agentId: string;
  expiresAt: Date;
  redeemed: false;
}

/** Issues a code for an agent inside `tx`, retiring its earlier unredeemed codes. */
export async function issueCode(tx: Tx, platformId: string, agentId: string): Promise<IssuedCode> {
  await repo.retireCodes(agentId, 'SUPERSEDED', tx);
  const code = newCode();
  const at = now();
  const expiresAt = addSeconds(at, CODE_LIFETIME_SECONDS);
  await repo.insertCode({ codeHash: codeHash(code), agentId, platformId, expiresAt, createdAt: at }, tx);
  return { code, agentId, expiresAt, redeemed: false };
}

/**
 * POST /agents/{agentId}/device-codes: a connected agent keeps its connection (409). Whoever
 * redeems the code acts as the agent, so the caller must hold what the agent can do.
 */
export async function regenerate(platformId: string, agentId: string): Promise<IssuedCode> {
  return transaction(async (tx) => {
    const agent = await repo.lockAgent(agentId, tx);
    if (!agent || agent.platformId !== platformId) throw notFound('REFERENCE_NOT_FOUND', `Agent ${agentId}`);
    requireOver(agentId, policyFromJson(agent.policy));
    if (agent.connectedAt)
      throw new DomainError('CONFLICT', `Agent ${agentId} is already connected; delete it and create a new agent`, {
        reason: 'AGENT_ALREADY_CONNECTED',
      });
    return issueCode(tx, platformId, agentId);
  });
}

/** GET /agents/device-codes/{code}/status (the platform's own codes only). */
export async function status(platformId: string, code: string) {
  const row = await repo.findCode(codeHash(code), db());
  if (!row || row.platformId !== platformId) throw notFound('REFERENCE_NOT_FOUND', 'Device code');
  return { code, redeemed: row.state === 'REDEEMED' };
}

/**
 * POST /agents/device-codes/{code}/redeem (no platform credentials: the code is the proof). Once
 * only, before it expires on the platform's clock; the access token is returned this once.
 */
export async function redeem(code: string) {
  const hash = codeHash(code);
  const found = await repo.findCode(hash, db());
  if (!found) throw notFound('REFERENCE_NOT_FOUND', 'Device code');
  const platform = await platforms.findById(found.platformId, db());
  const at = nowFor(platform ?? WALL_CLOCK);
  const token = newAccessToken();
  const agent = await changing([{ topic: 'agent', key: found.agentId }], async (tx) => {
    const redeemed = await repo.redeemCode(hash, at, tx);
    if (!redeemed) {
      const why = found.state !== 'ACTIVE' ? `was ${found.state.toLowerCase()}` : 'has expired';
      throw new DomainError('INVALID_INPUT', `This device code ${why}; ask the platform for a new one`, {
        reason: found.state === 'ACTIVE' ? 'EXPIRED' : found.state,
      });
    }
    const row = await repo.findAgentUnscoped(found.agentId, tx);
    if (!row) throw notFound('REFERENCE_NOT_FOUND', 'Device code');
    return repo.updateAgent(row.id, { tokenHash: tokenHash(token), connectedAt: at, updatedAt: at }, tx);
  });
  return { agentId: agent.id, agentName: agent.name, accessToken: token, policy: policyFromJson(agent.policy) };
}
