import type { Permission, Actor } from '../core/context';
import { clockOf } from '../core/clock';
import { DomainError } from '../core/errors';
import { missingPermission } from '../core/command';
import * as tokens from '../tokens/repository';
import { hashSecret, SECRET_HASH_VERSION, sha256Hex } from '../core/crypto/secrets';
import { matchSecret } from '../tokens/service';
import { principals } from './actor-cache';
import { singleFlight } from '../core/shared-cache';
import { recordFailure, refuseIfBlocked } from '../tokens/throttle';
import { resolveAgentToken } from '../agents/auth';

// Platform requests: HTTP Basic `<client id or token id>:<secret>`. Agent requests (`/agents/me`):
// `Authorization: Bearer <agent access token>`, resolved by the agents domain (lib/agents/auth.ts)
// to an agent actor scoped to the agent's customer.
export type AuthMode = 'platform' | 'agent';

/** Concurrent logins of one client id share its read (lib/core/shared-cache.ts singleFlight). */
const tokenReads = singleFlight<Awaited<ReturnType<typeof tokens.findForAuth>>>();

const unauthorized = (message: string) => new DomainError('UNAUTHORIZED', message);

function parseBasic(header: string): { username: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  // Split at the last colon: a token id (`Token:<uuid>`) contains colons, a secret never does.
  const at = decoded.lastIndexOf(':');
  if (at <= 0 || at === decoded.length - 1) return null;
  return { username: decoded.slice(0, at), secret: decoded.slice(at + 1) };
}

/**
 * The caller of a request: `authorization` is its Authorization header, `address` its source
 * (lib/http/client-address.ts), against which failures are throttled (lib/tokens/throttle.ts).
 */
export async function authenticate(authorization: string | null, mode: AuthMode, address: string): Promise<Actor> {
  if (!authorization)
    throw unauthorized(
      mode === 'agent'
        ? 'Missing Authorization header: agent endpoints take Authorization: Bearer <agent access token>'
        : 'Missing Authorization header: use HTTP Basic with your API client id and secret',
    );

  if (mode === 'agent') {
    await refuseIfBlocked(address, null);
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const actor = m ? await resolveAgentToken(m[1]) : null;
    if (!actor) {
      await recordFailure(address, null);
      throw unauthorized(
        m
          ? 'Agent access token is invalid, expired or revoked'
          : 'Agent endpoints take an agent access token: Authorization: Bearer <token>',
      );
    }
    return actor;
  }

  const creds = parseBasic(authorization);
  await refuseIfBlocked(address, creds?.username ?? null);
  if (!creds) {
    await recordFailure(address, null);
    throw unauthorized('Malformed Authorization header: expected Basic base64(<client id>:<client secret>)');
  }
  // Only verified credentials are cached, keyed by the secret's hash (never the secret).
  const key = `${creds.username}\n${sha256Hex(creds.secret)}`;
  const cached = principals.get(key);
  if (cached) return cached;
  const stamp = principals.stamp();
  const token = await tokenReads(creds.username, () => tokens.findForAuth(creds.username));
  const match = token ? matchSecret(token, creds.secret, token.platform) : null;
  if (!token || !match) {
    await recordFailure(address, token);
    throw unauthorized('Invalid API client id or secret');
  }
  // A hash of an older version has just been proven against the secret: store the current one.
  if (match === 'current' && token.secretHashVersion !== SECRET_HASH_VERSION)
    await tokens.upgradeSecretHash(token.id, hashSecret(creds.secret), SECRET_HASH_VERSION, token.secretHashVersion);
  const actor: Actor = {
    kind: 'platform',
    platformId: token.platformId,
    tokenId: token.id,
    permissions: token.permissions as Permission[],
    ...clockOf(token.platform),
  };
  // A rotated-out secret is checked every time: its overlap window ends on the platform's clock.
  if (match === 'current') principals.set(key, actor, stamp);
  return actor;
}

export function requirePermission(actor: Actor, permission: Permission | undefined): void {
  if (!permission || actor.kind !== 'platform') return;
  if (!actor.permissions.includes(permission)) throw missingPermission(permission, actor.permissions);
}
