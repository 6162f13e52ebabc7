import { db, type Prisma, type Tx } from '../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';
import {
  ISSUANCE_MOVES,
  LINK_MOVES,
  OPERATION_MOVES,
  type IssuanceMove,
  type LinkMove,
  type OperationMove,
} from './state';

// Stablecoin SQL: provider account links, stablecoins and their operations. State changes are
// guarded moves (state.ts): a row moves only from the states its move allows.
export type LinkRow = Prisma.StablecoinProviderAccountGetPayload<object>;
export type StablecoinRow = Prisma.StablecoinGetPayload<object>;
export type OperationRow = Prisma.StablecoinOperationGetPayload<object>;

const notFoundIsNull = (err: unknown) => {
  if ((err as { code?: string }).code === 'P2025') return null;
  throw err;
};

// Provider account links.
export const insertLink = (row: Prisma.StablecoinProviderAccountUncheckedCreateInput, tx: Tx) =>
  tx.stablecoinProviderAccount.create({ data: row });

export const findLink = (platformId: string, id: string, tx: Tx) =>
  tx.stablecoinProviderAccount.findFirst({ where: { platformId, id } });

export const findLinkByAccount = (
  platformId: string,
  provider: string,
  providerEnvironment: string,
  providerAccountId: string,
  tx: Tx,
) =>
  tx.stablecoinProviderAccount.findUnique({
    where: {
      platformId_provider_providerEnvironment_providerAccountId: {
        platformId,
        provider,
        providerEnvironment,
        providerAccountId,
      },
    },
  });

/** The platform's links for one provider and environment, newest first. */
export const linksFor = (platformId: string, provider: string, providerEnvironment: string, tx: Tx) =>
  tx.stablecoinProviderAccount.findMany({ where: { platformId, provider, providerEnvironment }, orderBy: orderOf() });

export function moveLink(
  id: string,
  move: LinkMove,
  data: Prisma.StablecoinProviderAccountUncheckedUpdateInput,
  tx: Tx,
): Promise<LinkRow | null> {
  const m = LINK_MOVES[move];
  return tx.stablecoinProviderAccount
    .update({ where: { id, status: { in: [...m.from] } }, data: { ...data, status: m.to } })
    .catch(notFoundIsNull);
}

export const touchLink = (id: string, data: Prisma.StablecoinProviderAccountUncheckedUpdateInput, tx: Tx) =>
  tx.stablecoinProviderAccount.update({ where: { id }, data });

export function listLinks(platformId: string, f: { provider?: string; status?: string }, req: ListRequest) {
  const where: Prisma.StablecoinProviderAccountWhereInput = {
    platformId,
    ...(f.provider ? { provider: f.provider } : {}),
    ...(f.status ? { status: f.status } : {}),
  };
  return listRows(req, {
    rows: (after, take) =>
      db().stablecoinProviderAccount.findMany({ where: { AND: [where, after] }, orderBy: orderOf(req.order), take }),
    count: (cap) => db().stablecoinProviderAccount.count({ where, ...bounded(cap) }),
  });
}

// Stablecoins.
export const insertStablecoin = (row: Prisma.StablecoinUncheckedCreateInput, tx: Tx) =>
  tx.stablecoin.create({ data: row });

export const findStablecoin = (platformId: string, id: string, tx: Tx) =>
  tx.stablecoin.findFirst({ where: { platformId, id } });

export function moveIssuance(id: string, move: IssuanceMove, at: Date, tx: Tx): Promise<StablecoinRow | null> {
  const m = ISSUANCE_MOVES[move];
  return tx.stablecoin
    .update({ where: { id, issuanceStatus: { in: [...m.from] } }, data: { issuanceStatus: m.to, updatedAt: at } })
    .catch(notFoundIsNull);
}

export function listStablecoins(
  platformId: string,
  f: { issuanceStatus?: string; gridOperationsStatus?: string; provider?: string },
  req: ListRequest,
) {
  const where: Prisma.StablecoinWhereInput = {
    platformId,
    ...(f.issuanceStatus ? { issuanceStatus: f.issuanceStatus } : {}),
    ...(f.gridOperationsStatus ? { gridOperationsStatus: f.gridOperationsStatus } : {}),
    ...(f.provider ? { provider: f.provider } : {}),
  };
  return listRows(req, {
    rows: (after, take) =>
      db().stablecoin.findMany({ where: { AND: [where, after] }, orderBy: orderOf(req.order), take }),
    count: (cap) => db().stablecoin.count({ where, ...bounded(cap) }),
  });
}

// Operations.
export const insertOperation = (row: Prisma.StablecoinOperationUncheckedCreateInput, tx: Tx) =>
  tx.stablecoinOperation.create({ data: row });

export const findOperation = (platformId: string, id: string, tx: Tx) =>
  tx.stablecoinOperation.findFirst({ where: { platformId, id } });

export function moveOperation(
  id: string,
  move: OperationMove,
  data: Prisma.StablecoinOperationUncheckedUpdateInput,
  tx: Tx,
): Promise<OperationRow | null> {
  const m = OPERATION_MOVES[move];
  return tx.stablecoinOperation
    .update({ where: { id, status: { in: [...m.from] } }, data: { ...data, status: m.to } })
    .catch(notFoundIsNull);
}

export const touchOperation = (id: string, data: Prisma.StablecoinOperationUncheckedUpdateInput, tx: Tx) =>
  tx.stablecoinOperation.update({ where: { id }, data });

export function listOperations(
  platformId: string,
  stablecoinId: string,
  f: { operationType?: string },
  req: ListRequest,
) {
  const where: Prisma.StablecoinOperationWhereInput = {
    platformId,
    stablecoinId,
    ...(f.operationType ? { operationType: f.operationType } : {}),
  };
  return listRows(req, {
    rows: (after, take) =>
      db().stablecoinOperation.findMany({ where: { AND: [where, after] }, orderBy: orderOf(req.order), take }),
    count: (cap) => db().stablecoinOperation.count({ where, ...bounded(cap) }),
  });
}
