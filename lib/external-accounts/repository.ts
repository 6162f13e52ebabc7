import { db, lockOne, Prisma, queryIn, type Tx } from '../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';

export type ExternalAccountRow = Prisma.ExternalAccountGetPayload<object>;
export type OwnershipChallengeRow = Prisma.ExternalAccountOwnershipChallengeGetPayload<object>;
export type TrustChallengeRow = Prisma.BeneficiaryTrustChallengeGetPayload<object>;

/** Whose accounts a call may see: a customer's (any customer when customerId is omitted) or the platform's. */
export type Owner = { kind: 'customers'; customerId?: string } | { kind: 'platform' } | { kind: 'any' };

function ownerWhere(owner: Owner): Prisma.ExternalAccountWhereInput {
  if (owner.kind === 'any') return {};
  if (owner.kind === 'platform') return { customerId: null };
  return { customerId: owner.customerId ?? { not: null } };
}

export async function insert(row: Prisma.ExternalAccountUncheckedCreateInput, tx: Tx): Promise<ExternalAccountRow> {
  return tx.externalAccount.create({ data: row });
}

/** An account of this owner kind, deleted or not (a deleted one is INACTIVE). */
export function findOwned(platformId: string, id: string, owner: Owner, tx: Tx): Promise<ExternalAccountRow | null> {
  return tx.externalAccount.findFirst({ where: { platformId, id, ...ownerWhere(owner) } });
}

/** A live (not deleted) account of this owner kind. */
export function findLive(platformId: string, id: string, owner: Owner, tx: Tx): Promise<ExternalAccountRow | null> {
  return tx.externalAccount.findFirst({ where: { platformId, id, deletedAt: null, ...ownerWhere(owner) } });
}

/**
 * A live account of any owner, for a payment. Read on every quote, so a plain SQL read: the
 * Prisma query builder costs more CPU than the read itself.
 */
export async function findLiveAny(platformId: string, id: string, tx: Tx): Promise<ExternalAccountRow | null> {
  const rows = await queryIn<ExternalAccountRow>(
    tx,
    Prisma.sql`
    SELECT * FROM "ExternalAccount" WHERE "id" = ${id} AND "platformId" = ${platformId} AND "deletedAt" IS NULL`,
  );
  return rows[0] ?? null;
}

/** Accounts of the platform by id, deleted ones included (a past payment still names its payee). */
export function byIds(platformId: string, ids: string[], tx: Tx): Promise<ExternalAccountRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return tx.externalAccount.findMany({ where: { platformId, id: { in: ids } } });
}

/** The live account locked for update, so changes to one account serialize. */
export async function lockLive(
  platformId: string,
  id: string,
  owner: Owner,
  tx: Tx,
): Promise<ExternalAccountRow | null> {
  const ownerSql =
    owner.kind === 'any'
      ? Prisma.empty
      : owner.kind === 'platform'
        ? Prisma.sql`AND "customerId" IS NULL`
        : owner.customerId
          ? Prisma.sql`AND "customerId" = ${owner.customerId}`
          : Prisma.sql`AND "customerId" IS NOT NULL`;
  return lockOne<ExternalAccountRow>(
    tx,
    'ExternalAccount',
    Prisma.sql`"id" = ${id} AND "platformId" = ${platformId} AND "deletedAt" IS NULL ${ownerSql}`,
  );
}

export function findDuplicate(
  platformId: string,
  customerId: string | null,
  currency: string,
  identityKey: string,
  tx: Tx,
) {
  return tx.externalAccount.findFirst({
    where: { platformId, customerId, currency, identityKey, deletedAt: null },
    select: { id: true },
  });
}

export function findDefault(platformId: string, customerId: string, tx: Tx): Promise<ExternalAccountRow | null> {
  return tx.externalAccount.findFirst({
    where: { platformId, customerId, defaultUmaDepositAccount: true, deletedAt: null },
  });
}

export async function clearDefault(platformId: string, customerId: string, at: Date, tx: Tx): Promise<void> {
  await tx.externalAccount.updateMany({
    where: { platformId, customerId, defaultUmaDepositAccount: true, deletedAt: null },
    data: { defaultUmaDepositAccount: false, updatedAt: at },
  });
}

/** The one guarded status transition: applies only when the account is live and in one of `from`. */
export async function setStatus(
  id: string,
  from: string[],
  to: string,
  at: Date,
  tx: Tx,
): Promise<ExternalAccountRow | null> {
  const n = await tx.externalAccount.updateMany({
    where: { id, deletedAt: null, status: { in: from } },
    data: { status: to, updatedAt: at },
  });
  return n.count === 1 ? tx.externalAccount.findUnique({ where: { id } }) : null;
}

export async function update(
  id: string,
  data: Prisma.ExternalAccountUncheckedUpdateInput,
  tx: Tx,
): Promise<ExternalAccountRow> {
  return tx.externalAccount.update({ where: { id }, data });
}

export interface ExternalAccountFilter {
  owner: Owner;
  currency?: string;
}

export async function list(platformId: string, f: ExternalAccountFilter, req: ListRequest) {
  const base: Prisma.ExternalAccountWhereInput = {
    platformId,
    deletedAt: null,
    ...ownerWhere(f.owner),
    ...(f.currency ? { currency: f.currency } : {}),
  };
  return listRows(req, {
    rows: (after, take) =>
      db().externalAccount.findMany({
        where: { AND: [base, after] },
        orderBy: orderOf(),
        take,
      }),
    count: (cap) => db().externalAccount.count({ where: base, ...bounded(cap) }),
  });
}

// Ownership challenges.
export async function abandonPendingOwnership(externalAccountId: string, at: Date, tx: Tx): Promise<void> {
  await tx.externalAccountOwnershipChallenge.updateMany({
    where: { externalAccountId, state: 'PENDING' },
    data: { state: 'ABANDONED', completedAt: at },
  });
}

export async function insertOwnershipChallenge(
  row: Prisma.ExternalAccountOwnershipChallengeUncheckedCreateInput,
  tx: Tx,
): Promise<OwnershipChallengeRow> {
  return tx.externalAccountOwnershipChallenge.create({ data: row });
}

export function pendingOwnership(externalAccountId: string, tx: Tx): Promise<OwnershipChallengeRow | null> {
  return tx.externalAccountOwnershipChallenge.findFirst({ where: { externalAccountId, state: 'PENDING' } });
}

export function findOwnershipChallenge(id: string, tx: Tx): Promise<OwnershipChallengeRow | null> {
  return tx.externalAccountOwnershipChallenge.findUnique({ where: { id } });
}

/** Ends a PENDING challenge; false when it was no longer pending (a concurrent call ended it). */
export async function completeOwnership(id: string, state: 'SUCCEEDED' | 'FAILED', at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.externalAccountOwnershipChallenge.updateMany({
    where: { id, state: 'PENDING' },
    data: { state, completedAt: at },
  });
  return n.count === 1;
}

// Beneficiary trust challenges.
export async function abandonPendingTrust(externalAccountId: string, at: Date, tx: Tx): Promise<void> {
  await tx.beneficiaryTrustChallenge.updateMany({
    where: { externalAccountId, state: 'PENDING' },
    data: { state: 'ABANDONED', completedAt: at },
  });
}

export async function insertTrustChallenge(
  row: Prisma.BeneficiaryTrustChallengeUncheckedCreateInput,
  tx: Tx,
): Promise<TrustChallengeRow> {
  return tx.beneficiaryTrustChallenge.create({ data: row });
}

export function pendingTrust(externalAccountId: string, tx: Tx): Promise<TrustChallengeRow | null> {
  return tx.beneficiaryTrustChallenge.findFirst({ where: { externalAccountId, state: 'PENDING' } });
}

/** Ends a challenge that can no longer succeed (expired, or its code took too many wrong tries). */
export async function failTrust(id: string, at: Date, tx: Tx): Promise<void> {
  await tx.beneficiaryTrustChallenge.updateMany({
    where: { id, state: 'PENDING' },
    data: { state: 'FAILED', completedAt: at },
  });
}

export async function confirmTrust(id: string, at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.beneficiaryTrustChallenge.updateMany({
    where: { id, state: 'PENDING' },
    data: { state: 'CONFIRMED', completedAt: at },
  });
  return n.count === 1;
}
