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
  createdAt: Date;
  updatedAt: Date;
}

export async function insert(row: TokenRow, tx: Tx = db()): Promise<TokenRow> {
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

/** A new secret for a token (bootstrap credentials): the old one stops working in every process. */
export async function replaceSecretHash(id: string, hash: string, version: number, at: Date) {
  await changing([{ topic: 'api-token', key: id }], (tx) =>
    tx.apiToken.update({ where: { id }, data: { secretHash: hash, secretHashVersion: version, updatedAt: at } }),
  );
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
