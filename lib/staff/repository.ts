import { Prisma, db, type Tx } from '../core/db';
import { listRows, orderOf, type ListRequest, bounded } from '../core/list';

// Persistence of staff users, their console sessions, the sign-in throttle and the audit trail.
export type StaffUserRow = Prisma.StaffUserGetPayload<object>;
export type StaffSessionRow = Prisma.StaffSessionGetPayload<object>;
export type AuditRow = Prisma.StaffAuditEntryGetPayload<object>;

export function insertUser(row: StaffUserRow, tx: Tx = db()): Promise<StaffUserRow> {
  return tx.staffUser.create({ data: row });
}

export function findUserByEmail(email: string): Promise<StaffUserRow | null> {
  return db().staffUser.findUnique({ where: { email } });
}

export function findUser(platformId: string, id: string, tx: Tx = db()): Promise<StaffUserRow | null> {
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
    data: { passwordHash, disabledAt: null, sessionsValidFrom: at, updatedAt: at },
  });
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

export function findThrottle(key: string) {
  return db().staffSignInThrottle.findUnique({ where: { key } });
}

/**
 * Counts one failed sign-in for `key` in one statement (concurrent failures all count): the
 * window restarts when the last one began more than `windowMs` ago. Returns the count so far.
 */
export async function countFailure(key: string, at: Date, windowMs: number): Promise<number> {
  const since = new Date(at.getTime() - windowMs);
  const rows = await db().$queryRaw<{ failures: number }[]>`
    INSERT INTO "StaffSignInThrottle" AS t ("key", "failures", "windowStartedAt", "lockedUntil")
    VALUES (${key}, 1, ${at}::timestamp(3), NULL)
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN t."windowStartedAt" < ${since}::timestamp(3) THEN 1 ELSE t."failures" + 1 END,
      "windowStartedAt" = CASE WHEN t."windowStartedAt" < ${since}::timestamp(3) THEN ${at}::timestamp(3) ELSE t."windowStartedAt" END
    RETURNING "failures"`;
  return rows[0].failures;
}

/** Locks `key` until `until` and starts its count again. */
export async function lockKey(key: string, at: Date, until: Date): Promise<void> {
  await db().staffSignInThrottle.update({
    where: { key },
    data: { failures: 0, windowStartedAt: at, lockedUntil: until },
  });
}

export function clearThrottle(key: string) {
  return db().staffSignInThrottle.deleteMany({ where: { key } });
}

export function insertAudit(row: AuditRow, tx: Tx = db()): Promise<AuditRow> {
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

export async function listAudit(platformId: string, req: ListRequest) {
  const base = { platformId };
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
