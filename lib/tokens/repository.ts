import type { Tx } from '../core/db';
import { db, transaction } from '../core/db';
import { announce, changing } from '../core/invalidation';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';

export interface TokenRow {
  id: string;
  platformId: string;
  name: string;
  permissions: string[];
  clientId: string;
  secretHash: string;
  secretHashVersion: number;
  previousSecretHash?: string | null;
  previousSecretHashVersion?: number | null;
  previousSecretExpiresAt?: Date | null;
  rotatedAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export async function insert(row: TokenRow, tx: Tx): Promise<TokenRow> {
  return tx.apiToken.create({ data: row });
}

/** The credential lookup of every authenticated request: token and its platform's clock. */
export function findForAuth(username: string) {
  return db().apiToken.findFirst({
    where: { OR: [{ clientId: username }, { id: username }], deletedAt: null },
    select: {
      id: true,
      platformId: true,
      clientId: true,
      permissions: true,
      secretHash: true,
      secretHashVersion: true,
      previousSecretHash: true,
      previousSecretHashVersion: true,
      previousSecretExpiresAt: true,
      platform: { select: { clockOffsetMs: true, clockFrozenAt: true } },
    },
  });
}

/** Rewrites a hash of an older version that has just been proven against the secret. */
export async function upgradeSecretHash(id: string, hash: string, version: number, fromVersion: number) {
  await db().apiToken.updateMany({
    where: { id, secretHashVersion: fromVersion },
    data: { secretHash: hash, secretHashVersion: version },
  });
}

const noPrevious = { previousSecretHash: null, previousSecretHashVersion: null, previousSecretExpiresAt: null };

/** A new secret for a token (bootstrap credentials): the old ones stop working in every process. */
export async function replaceSecretHash(id: string, hash: string, version: number, at: Date) {
  await changing([{ topic: 'api-token', key: id }], (tx) =>
    tx.apiToken.update({
      where: { id },
      data: { secretHash: hash, secretHashVersion: version, ...noPrevious, updatedAt: at },
    }),
  );
}

export interface Rotation {
  hash: string;
  version: number;
  /** Until when the replaced secret still authenticates; null: it stops now. */
  previousExpiresAt: Date | null;
  at: Date;
}

/**
 * Rotates a live token's secret inside `tx`: the current secret becomes the previous one (with
 * its expiry), replacing any earlier previous one. The row is locked first, so two rotations at
 * once chain (each new secret works) rather than one overwriting the other's. Null: no such token.
 */
export async function rotateSecret(tx: Tx, platformId: string, id: string, r: Rotation): Promise<TokenRow | null> {
  const [locked] = await tx.$queryRaw<{ secretHash: string; secretHashVersion: number }[]>`
    SELECT "secretHash", "secretHashVersion" FROM "ApiToken"
    WHERE "platformId" = ${platformId} AND "id" = ${id} AND "deletedAt" IS NULL
    FOR UPDATE`;
  if (!locked) return null;
  const previous = r.previousExpiresAt
    ? {
        previousSecretHash: locked.secretHash,
        previousSecretHashVersion: locked.secretHashVersion,
        previousSecretExpiresAt: r.previousExpiresAt,
      }
    : noPrevious;
  return tx.apiToken.update({
    where: { id },
    data: { secretHash: r.hash, secretHashVersion: r.version, ...previous, rotatedAt: r.at, updatedAt: r.at },
  });
}

export function findById(platformId: string, id: string) {
  return db().apiToken.findFirst({ where: { platformId, id, deletedAt: null } });
}

export interface TokenFilter {
  name?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
}

function where(platformId: string, f: TokenFilter) {
  return {
    platformId,
    deletedAt: null,
    ...(f.name ? { name: f.name } : {}),
    createdAt: {
      ...(f.createdAfter ? { gte: f.createdAfter } : {}),
      ...(f.createdBefore ? { lte: f.createdBefore } : {}),
    },
    updatedAt: {
      ...(f.updatedAfter ? { gte: f.updatedAfter } : {}),
      ...(f.updatedBefore ? { lte: f.updatedBefore } : {}),
    },
  };
}

export async function list(platformId: string, f: TokenFilter, req: ListRequest) {
  const base = where(platformId, f);
  return listRows(req, {
    rows: (after, take) => db().apiToken.findMany({ where: { AND: [base, after] }, orderBy: orderOf(), take }),
    count: (cap) => db().apiToken.count({ where: base, ...bounded(cap) }),
  });
}

/**
 * Soft delete: the row stays for audit, the credential stops working at once, in every server
 * process (cached principals of the token are dropped when the deletion commits).
 */
export async function softDelete(platformId: string, id: string, at: Date): Promise<boolean> {
  const change = await transaction(async (tx) => {
    const n = await tx.apiToken.updateMany({
      where: { platformId, id, deletedAt: null },
      data: { deletedAt: at, updatedAt: at },
    });
    return n.count === 1 ? announce(tx, 'api-token', id) : null;
  });
  await change?.committed();
  return change !== null;
}
