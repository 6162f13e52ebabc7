import { Prisma, db, type Tx } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';

// Persistence of staff users, their console sessions, the sign-in limits and the audit trail.
export type StaffUserRow = Prisma.StaffUserGetPayload<object>;
export type StaffSessionRow = Prisma.StaffSessionGetPayload<object>;
export type AuditRow = Prisma.StaffAuditEntryGetPayload<object>;

export function insertUser(row: StaffUserRow, tx: Tx): Promise<StaffUserRow> {
  return tx.staffUser.create({ data: row });
}

export function findUserByEmail(email: string): Promise<StaffUserRow | null> {
  return db().staffUser.findUnique({ where: { email } });
}

export function findUserById(id: string): Promise<StaffUserRow | null> {
  return db().staffUser.findUnique({ where: { id } });
}

export type ChallengeRow = Prisma.StaffSignInChallengeGetPayload<object>;

export function insertChallenge(row: ChallengeRow): Promise<ChallengeRow> {
  return db().staffSignInChallenge.create({ data: row });
}

export function findChallenge(id: string): Promise<ChallengeRow | null> {
  return db().staffSignInChallenge.findUnique({ where: { id } });
}

/** Marks a challenge used; false when another request used it first. */
export async function useChallenge(id: string, at: Date): Promise<boolean> {
  const { count } = await db().staffSignInChallenge.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } });
  return count === 1;
}

export function findUser(platformId: string, id: string, tx: Tx): Promise<StaffUserRow | null> {
  return tx.staffUser.findFirst({ where: { platformId, id } });
}

export function countUsers(platformId: string): Promise<number> {
  return db().staffUser.count({ where: { platformId } });
}

export async function listUsers(platformId: string, req: ListRequest) {
  const base = { platformId };
  return listRows(req, {
    rows: (after, take) => db().staffUser.findMany({ where: { AND: [base, after] }, orderBy: orderOf(), take }),
    count: (cap) => db().staffUser.count({ where: base, ...bounded(cap) }),
  });
}

export function updateUser(id: string, data: Prisma.StaffUserUpdateInput, tx: Tx): Promise<StaffUserRow> {
  return tx.staffUser.update({ where: { id }, data });
}

/** A new password (and the account enabled); sessions opened before stop working. */
export async function resetPassword(id: string, passwordHash: string, at: Date): Promise<void> {
  await db().staffUser.update({
    where: { id },
    data: { passwordHash, disabledAt: null, sessionGeneration: { increment: 1 }, updatedAt: at },
  });
}

/**
 * Moves the user to a new session generation, so every session opened before is refused from
 * its next request; `keepSessionId` (the acting session, when it is the user's own) moves along.
 * One conditional increment: two bumps at once each take a generation of their own.
 */
export async function bumpGeneration(staffUserId: string, tx: Tx, keepSessionId?: string): Promise<number> {
  const { sessionGeneration } = await tx.staffUser.update({
    where: { id: staffUserId },
    data: { sessionGeneration: { increment: 1 } },
    select: { sessionGeneration: true },
  });
  if (keepSessionId)
    await tx.staffSession.updateMany({
      where: { id: keepSessionId, staffUserId, revokedAt: null },
      data: { generation: sessionGeneration },
    });
  return sessionGeneration;
}

/** Active admins other than `exceptId` (the last admin may not demote or disable itself away). */
export function countOtherActiveAdmins(platformId: string, exceptId: string, tx: Tx): Promise<number> {
  return tx.staffUser.count({ where: { platformId, role: 'admin', disabledAt: null, id: { not: exceptId } } });
}

export function lockUsers(platformId: string, tx: Tx) {
  // Role changes of one platform serialize, so two admins demoting each other cannot leave none.
  return tx.$queryRaw`SELECT "id" FROM "StaffUser" WHERE "platformId" = ${platformId} ORDER BY "id" FOR UPDATE`;
}

export function insertSession(row: StaffSessionRow): Promise<StaffSessionRow> {
  return db().staffSession.create({ data: row });
}

/** The session with its user, whatever their state (the caller decides what is still valid). */
export async function findSession(id: string) {
  const session = await db().staffSession.findUnique({ where: { id } });
  if (!session) return null;
  const user = await db().staffUser.findUnique({ where: { id: session.staffUserId } });
  return user ? { session, user } : null;
}

export async function revokeSession(id: string, at: Date): Promise<boolean> {
  const { count } = await db().staffSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
  return count === 1;
}

export interface LimitRow {
  key: string;
  attempts: number;
  lastAttemptAt: Date;
}

/**
 * The sign-in limits under `keys`, made (at zero) where missing and locked until `tx` ends. Keys
 * are taken in one order, so concurrent attempts queue on the rows instead of deadlocking.
 */
export async function lockLimits(tx: Tx, keys: string[], at: Date): Promise<LimitRow[]> {
  const sorted = [...keys].sort();
  await tx.$executeRaw`
    INSERT INTO "StaffSignInLimit" ("key", "attempts", "lastAttemptAt")
    SELECT k, 0, ${at}::timestamp(3) FROM unnest(${sorted}::text[]) AS k
    ON CONFLICT ("key") DO NOTHING`;
  return tx.$queryRaw<LimitRow[]>`
    SELECT "key", "attempts", "lastAttemptAt" FROM "StaffSignInLimit"
    WHERE "key" = ANY(${sorted}::text[]) ORDER BY "key" FOR UPDATE`;
}

/** Sets the attempts counted under each limit, the last one made at `at`. */
export async function writeLimits(tx: Tx, counts: { key: string; attempts: number }[], at: Date): Promise<void> {
  await tx.$executeRaw`
    UPDATE "StaffSignInLimit" AS t SET "attempts" = v.n, "lastAttemptAt" = ${at}::timestamp(3)
    FROM unnest(${counts.map((c) => c.key)}::text[], ${counts.map((c) => c.attempts)}::int[]) AS v(k, n)
    WHERE t."key" = v.k`;
}

/** Takes back one attempt under each limit (a sign-in that succeeded was no guess). */
export async function refundLimits(keys: string[]): Promise<void> {
  await db().$executeRaw`
    UPDATE "StaffSignInLimit" SET "attempts" = GREATEST("attempts" - 1, 0) WHERE "key" = ANY(${keys}::text[])`;
}

export async function clearLimit(key: string): Promise<void> {
  await db().staffSignInLimit.deleteMany({ where: { key } });
}

export async function isKnownSource(staffUserId: string, source: string, since: Date): Promise<boolean> {
  const row = await db().staffSignInSource.findUnique({ where: { staffUserId_source: { staffUserId, source } } });
  return row !== null && row.lastSignedInAt >= since;
}

export async function rememberSource(staffUserId: string, source: string, at: Date): Promise<void> {
  await db().staffSignInSource.upsert({
    where: { staffUserId_source: { staffUserId, source } },
    create: { staffUserId, source, lastSignedInAt: at },
    update: { lastSignedInAt: at },
  });
}

/** Limits with no attempt since `quietSince` (they count from zero again) and sources not used since `knownSince`. */
/** At most `limit` rows in all: the quiet limits first, then the sources, then old second-factor challenges. */
export async function pruneSignIn(quietSince: Date, knownSince: Date, limit = EVERY_ROW): Promise<number> {
  const limits = await deleteBatch('StaffSignInLimit', Prisma.sql`"lastAttemptAt" < ${quietSince}`, limit);
  if (limits >= limit) return limits;
  const sources = await deleteBatch('StaffSignInSource', Prisma.sql`"lastSignedInAt" < ${knownSince}`, limit - limits);
  if (limits + sources >= limit) return limits + sources;
  // Second-factor challenges live minutes; one a day past its expiry is of no use to anyone.
  const challenges = await deleteBatch(
    'StaffSignInChallenge',
    Prisma.sql`"expiresAt" < ${quietSince}`,
    limit - limits - sources,
  );
  return limits + sources + challenges;
}

export function insertAudit(row: AuditRow, tx: Tx): Promise<AuditRow> {
  return tx.staffAuditEntry.create({ data: { ...row, details: row.details as Prisma.InputJsonValue } });
}

/** Marks a STARTED entry DONE, naming what the action turned out to act on. */
export function completeAudit(id: string, objectId: string, details: Record<string, unknown>) {
  return db().staffAuditEntry.updateMany({
    where: { id, outcome: 'STARTED' },
    data: { outcome: 'DONE', objectId, details: details as Prisma.InputJsonValue },
  });
}

export function deleteStartedAudit(id: string) {
  return db().staffAuditEntry.deleteMany({ where: { id, outcome: 'STARTED' } });
}

export function auditOf(platformId: string, objectIds: string[], limit: number): Promise<AuditRow[]> {
  return db().staffAuditEntry.findMany({
    where: { platformId, objectId: { in: objectIds } },
    orderBy: orderOf(),
    take: limit,
  });
}

/** The audit log's filters: who (the email at the time), which action, and a createdAt range. */
export interface AuditFilter {
  staffEmail?: string;
  action?: string;
  from?: Date;
  to?: Date;
}

// Each filter walks an index (platformId, staffEmail | action, createdAt, id); the date range
// bounds the createdAt of whichever index the scan uses.
function auditWhere(platformId: string, f: AuditFilter): Prisma.StaffAuditEntryWhereInput {
  return {
    platformId,
    ...(f.staffEmail ? { staffEmail: f.staffEmail } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lte: f.to } : {}) } } : {}),
  };
}

export async function listAudit(platformId: string, f: AuditFilter, req: ListRequest) {
  const base = auditWhere(platformId, f);
  return listRows(req, {
    rows: (after, take) =>
      db().staffAuditEntry.findMany({
        where: { AND: [base, after] },
        orderBy: orderOf(),
        take,
      }),
    count: (cap) => db().staffAuditEntry.count({ where: base, ...bounded(cap) }),
  });
}
