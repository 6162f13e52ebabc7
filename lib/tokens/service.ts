import { effect } from '../core/idempotency';
import { randomBytes } from 'node:crypto';
import { newId } from '../core/ids';
import { now } from '../core/clock';
import type { Permission } from '../core/context';
import type { Tx } from '../core/db';
import { invalidInput, notFound } from '../core/errors';
import { pageOf } from '../core/list';
import { generateSecret, hashSecret, SECRET_HASH_VERSION } from '../core/crypto/secrets';
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
  tx?: Tx,
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
  return tx ? write(tx) : effect(write);
}

const holding = (permissions: readonly string[]) => `a token that holds ${permissions.join(', ')}`;

/**
 * POST /tokens: a token grants at most what it holds, so a MANAGE-only token cannot mint itself
 * a TRANSACT token and move money with it.
 */
export async function create(platformId: string, name: string, permissions: Permission[]) {
  requireHeld(permissions, `create ${holding(permissions)}`);
  return issue(platformId, name, permissions);
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
