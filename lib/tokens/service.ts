import { effect } from '../core/idempotency';
import { randomBytes } from 'node:crypto';
import { newId } from '../core/ids';
import { addSeconds, now, nowFor, type PlatformClock } from '../core/clock';
import { announce, type Announcement } from '../core/invalidation';
import type { Permission } from '../core/context';
import { db, inTransaction, type Tx } from '../core/db';
import { invalidInput, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import { generateSecret, hashSecret, secretMatches, SECRET_HASH_VERSION } from '../core/crypto/secrets';
import { requireHeld } from './grants';
import * as repo from './repository';

// API tokens: Basic credentials for a platform. The secret is shown once, at creation.
function present(row: repo.TokenRow, clientSecret?: string) {
  return {
    id: row.id,
    name: row.name,
    permissions: row.permissions as Permission[],
    clientId: row.clientId,
    ...(clientSecret ? { clientSecret } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface IssueOptions {
  /** Known credentials for automation (CORRIDOR_CLIENT_ID / CORRIDOR_CLIENT_SECRET at bootstrap). */
  clientId?: string;
  clientSecret?: string;
}

export async function issue(
  platformId: string,
  name: string,
  permissions: Permission[],
  opts: IssueOptions = {},
  tx: Tx,
) {
  const at = now();
  const clientSecret = opts.clientSecret ?? generateSecret();
  const write = async (t: Tx) => {
    const row = await repo.insert(
      {
        id: newId('Token'),
        platformId,
        name,
        permissions,
        clientId: opts.clientId ?? randomBytes(16).toString('hex'),
        secretHash: hashSecret(clientSecret),
        secretHashVersion: SECRET_HASH_VERSION,
        createdAt: at,
        updatedAt: at,
      },
      t,
    );
    return present(row, clientSecret);
  };
  return inTransaction(tx) ? write(tx) : effect(write);
}

const holding = (permissions: readonly string[]) => `a token that holds ${permissions.join(', ')}`;

/**
 * POST /tokens: a token grants at most what it holds, so a MANAGE-only token cannot mint itself
 * a TRANSACT token and move money with it.
 */
export async function create(platformId: string, name: string, permissions: Permission[]) {
  requireHeld(permissions, `create ${holding(permissions)}`);
  return issue(platformId, name, permissions, {}, db());
}

export async function get(platformId: string, id: string) {
  const row = await repo.findById(platformId, id);
  if (!row) throw notFound('TOKEN_NOT_FOUND', `Token ${id}`);
  return present(row);
}

export async function list(platformId: string, filter: repo.TokenFilter, limit: number, cursor?: string) {
  const listed = await repo.list(platformId, filter, { limit, cursor, filters: { ...filter } });
  return pageOf(listed, (r) => present(r));
}

/** DELETE /tokens/{id}: only a caller holding every permission of the token may take it away. */
export async function revoke(platformId: string, id: string, callerTokenId: string | undefined) {
  // Deleting the credential the request is authenticated with would lock the caller out mid-call.
  if (id === callerTokenId)
    throw invalidInput('A token cannot delete itself; authenticate with another token to delete this one');
  const row = await repo.findById(platformId, id);
  if (!row) throw notFound('TOKEN_NOT_FOUND', `Token ${id}`);
  // A token's permissions never change, so the row read here is the one deleted.
  requireHeld(row.permissions as Permission[], `delete ${holding(row.permissions)}`);
  if (!(await repo.softDelete(platformId, id, now()))) throw notFound('TOKEN_NOT_FOUND', `Token ${id}`);
}

/** How long a rotated-out secret keeps working unless the request says otherwise. */
export const DEFAULT_OVERLAP_SECONDS = 24 * 3600;

/**
 * POST /tokens/{id}/rotate: a new secret (in this answer only); the replaced one keeps working for
 * `overlapSeconds` on the platform's clock (0: it stops now), so clients can switch without an
 * outage. Like deletion, it needs every permission the token holds: whoever rotates learns a
 * secret with those permissions. Cached principals of the token are dropped in every process.
 */
export async function rotate(platformId: string, id: string, overlapSeconds = DEFAULT_OVERLAP_SECONDS) {
  const row = await repo.findById(platformId, id);
  if (!row) throw notFound('TOKEN_NOT_FOUND', `Token ${id}`);
  requireHeld(row.permissions as Permission[], `rotate the secret of ${holding(row.permissions)}`);
  const at = now();
  const clientSecret = generateSecret();
  const previousExpiresAt = overlapSeconds > 0 ? addSeconds(at, overlapSeconds) : null;
  let change: Announcement | null = null;
  const rotated = await effect(async (tx) => {
    const updated = await repo.rotateSecret(tx, platformId, id, {
      hash: hashSecret(clientSecret),
      version: SECRET_HASH_VERSION,
      previousExpiresAt,
      at,
    });
    if (!updated) throw notFound('TOKEN_NOT_FOUND', `Token ${id}`);
    change = await announce(tx, 'api-token', id);
    return { ...present(updated, clientSecret), previousSecretExpiresAt: previousExpiresAt };
  });
  await (change as Announcement | null)?.committed();
  return rotated;
}

export type SecretMatch = 'current' | 'previous' | null;

/**
 * Which of a token's secrets `secret` is: its current one, or the one a rotation replaced while
 * that is within its overlap window (on the token's platform clock).
 */
export function matchSecret(
  token: Pick<
    repo.TokenRow,
    'secretHash' | 'secretHashVersion' | 'previousSecretHash' | 'previousSecretHashVersion' | 'previousSecretExpiresAt'
  >,
  secret: string,
  clock: PlatformClock,
): SecretMatch {
  if (secretMatches(secret, token.secretHash, token.secretHashVersion)) return 'current';
  const { previousSecretHash: hash, previousSecretExpiresAt: until } = token;
  if (!hash || !until || until <= nowFor(clock)) return null;
  return secretMatches(secret, hash, token.previousSecretHashVersion ?? SECRET_HASH_VERSION) ? 'previous' : null;
}
