import { Prisma, queryIn, type Tx } from '../core/db';

// Storage of Strong Customer Authentication (models in prisma/schema/sca.prisma). Every step that
// must happen at most once (a TOTP time step, a recovery code, a login challenge, a factor's
// activation, a failed-login count) is one conditional statement, so concurrent requests cannot
// both pass it.
export type FactorRow = Prisma.ScaFactorGetPayload<object>;
export type LoginChallengeRow = Prisma.ScaLoginChallengeGetPayload<object>;
export type SessionRow = Prisma.ScaSessionGetPayload<object>;
export type SecurityRow = Prisma.ScaSecurityStateGetPayload<object>;
export type ResetRow = Prisma.ScaResetGetPayload<object>;

// ---- factors ----------------------------------------------------------------------------------

export function activeFactors(customerId: string, tx: Tx): Promise<FactorRow[]> {
  return tx.scaFactor.findMany({ where: { customerId, state: 'ACTIVE' }, orderBy: { createdAt: 'asc' } });
}

export function activeFactor(customerId: string, type: string, tx: Tx): Promise<FactorRow | null> {
  return tx.scaFactor.findFirst({ where: { customerId, type, state: 'ACTIVE' } });
}

export function pendingFactor(customerId: string, type: string, tx: Tx): Promise<FactorRow | null> {
  return tx.scaFactor.findFirst({ where: { customerId, type, state: 'PENDING' }, orderBy: { createdAt: 'desc' } });
}

/** A new enrollment replaces any unfinished one of the same type. */
export async function replacePending(row: Prisma.ScaFactorUncheckedCreateInput, tx: Tx): Promise<void> {
  await tx.scaFactor.deleteMany({ where: { customerId: row.customerId, type: row.type, state: 'PENDING' } });
  await tx.scaFactor.create({ data: row });
}

/** One wrong confirmation of a pending enrollment, counted only below the cap; null when dead. */
export async function countEnrollmentAttempt(id: string, maxAttempts: number, tx: Tx): Promise<number | null> {
  const rows = await queryIn<{ attempts: number }>(
    tx,
    Prisma.sql`UPDATE "ScaFactor" SET "attempts" = "attempts" + 1
      WHERE "id" = ${id} AND "state" = 'PENDING' AND "attempts" < ${maxAttempts} RETURNING "attempts"`,
  );
  return rows[0]?.attempts ?? null;
}

/** PENDING -> ACTIVE with the proven material; false if another request activated or removed it. */
export async function activate(id: string, data: Prisma.ScaFactorUncheckedUpdateInput, tx: Tx): Promise<boolean> {
  const { count } = await tx.scaFactor.updateMany({
    where: { id, state: 'PENDING' },
    data: { ...data, state: 'ACTIVE' },
  });
  return count === 1;
}

export async function deleteFactor(id: string, tx: Tx): Promise<boolean> {
  return (await tx.scaFactor.deleteMany({ where: { id } })).count === 1;
}

export async function deleteFactorsOfType(customerId: string, type: string, tx: Tx): Promise<number> {
  return (await tx.scaFactor.deleteMany({ where: { customerId, type } })).count;
}

export function passkeyByCredential(customerId: string, credentialId: string, tx: Tx) {
  return tx.scaFactor.findFirst({ where: { customerId, credentialId, type: 'PASSKEY', state: 'ACTIVE' } });
}

/** Accepts a TOTP time step once: only a step later than the last accepted one moves it. */
export async function consumeTotpStep(id: string, step: bigint, tx: Tx): Promise<boolean> {
  const rows = await queryIn<{ id: string }>(
    tx,
    Prisma.sql`UPDATE "ScaFactor" SET "lastStep" = ${step}
      WHERE "id" = ${id} AND "state" = 'ACTIVE' AND ("lastStep" IS NULL OR "lastStep" < ${step}) RETURNING "id"`,
  );
  return rows.length === 1;
}

/** Spends a recovery code (by its keyed hash) once. */
export async function consumeRecoveryCode(id: string, hash: string, tx: Tx): Promise<boolean> {
  const rows = await queryIn<{ id: string }>(
    tx,
    Prisma.sql`UPDATE "ScaFactor" SET "recoveryCodes" = array_remove("recoveryCodes", ${hash})
      WHERE "id" = ${id} AND "state" = 'ACTIVE' AND ${hash} = ANY("recoveryCodes") RETURNING "id"`,
  );
  return rows.length === 1;
}

/** Moves a passkey's signature counter forward (never back: a cloned authenticator shows as a lower one). */
export async function advanceCounter(id: string, from: bigint, to: bigint, tx: Tx): Promise<boolean> {
  const rows = await queryIn<{ id: string }>(
    tx,
    Prisma.sql`UPDATE "ScaFactor" SET "counter" = ${to} WHERE "id" = ${id} AND "counter" = ${from} RETURNING "id"`,
  );
  return rows.length === 1;
}

// ---- login challenges and sessions ------------------------------------------------------------

export async function insertLoginChallenge(row: LoginChallengeRow, tx: Tx): Promise<void> {
  await tx.scaLoginChallenge.updateMany({
    where: { customerId: row.customerId, state: 'PENDING' },
    data: { state: 'SUPERSEDED' },
  });
  await tx.scaLoginChallenge.create({ data: row });
}

export function pendingLoginChallenge(customerId: string, factor: string, tx: Tx) {
  return tx.scaLoginChallenge.findFirst({
    where: { customerId, factor, state: 'PENDING' },
    orderBy: { createdAt: 'desc' },
  });
}

export async function useLoginChallenge(id: string, tx: Tx): Promise<boolean> {
  return (
    (await tx.scaLoginChallenge.updateMany({ where: { id, state: 'PENDING' }, data: { state: 'USED' } })).count === 1
  );
}

export async function insertSession(row: SessionRow, tx: Tx): Promise<void> {
  await tx.scaSession.create({ data: row });
}

export function liveSession(customerId: string, at: Date, tx: Tx): Promise<SessionRow | null> {
  return tx.scaSession.findFirst({
    where: { customerId, revokedAt: null, expiresAt: { gt: at } },
    orderBy: { expiresAt: 'desc' },
  });
}

export async function revokeSessions(customerId: string, at: Date, tx: Tx): Promise<number> {
  return (
    await tx.scaSession.updateMany({
      where: { customerId, revokedAt: null, expiresAt: { gt: at } },
      data: { revokedAt: at },
    })
  ).count;
}

// ---- login-security state ---------------------------------------------------------------------

export function securityState(customerId: string, tx: Tx): Promise<SecurityRow | null> {
  return tx.scaSecurityState.findUnique({ where: { customerId } });
}

/**
 * One failed login, counted in one statement, with the lockout it earns at each milestone (the
 * reference: 5 -> 15 minutes, 6 -> 30 minutes, 7 -> 1 hour, 8 -> 24 hours, 9 or more -> suspended).
 */
export async function countFailedLogin(platformId: string, customerId: string, at: Date, tx: Tx) {
  const rows = await queryIn<SecurityRow>(
    tx,
    Prisma.sql`
    INSERT INTO "ScaSecurityState" AS s ("customerId", "platformId", "failedAttempts", "lockedUntil", "suspended", "updatedAt")
    VALUES (${customerId}, ${platformId}, 1, NULL, false, ${at}::timestamp(3))
    ON CONFLICT ("customerId") DO UPDATE SET
      "failedAttempts" = s."failedAttempts" + 1,
      "suspended" = s."suspended" OR s."failedAttempts" + 1 >= 9,
      "lockedUntil" = CASE s."failedAttempts" + 1
        WHEN 5 THEN ${at}::timestamp(3) + interval '15 minutes'
        WHEN 6 THEN ${at}::timestamp(3) + interval '30 minutes'
        WHEN 7 THEN ${at}::timestamp(3) + interval '1 hour'
        WHEN 8 THEN ${at}::timestamp(3) + interval '24 hours'
        ELSE CASE WHEN s."failedAttempts" + 1 >= 9 THEN NULL ELSE s."lockedUntil" END END,
      "updatedAt" = ${at}::timestamp(3)
    RETURNING *`,
  );
  return rows[0];
}

export async function clearFailedLogins(platformId: string, customerId: string, at: Date, tx: Tx) {
  return tx.scaSecurityState.upsert({
    where: { customerId },
    create: { customerId, platformId, failedAttempts: 0, suspended: false, updatedAt: at },
    update: { failedAttempts: 0, lockedUntil: null, suspended: false, updatedAt: at },
  });
}

// ---- resets -----------------------------------------------------------------------------------

export function resetsSince(customerId: string, since: Date, tx: Tx) {
  return tx.scaReset.findMany({
    where: { customerId, createdAt: { gte: since } },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
  });
}

export async function insertReset(row: ResetRow, tx: Tx): Promise<void> {
  await tx.scaReset.create({ data: row });
}

export function findReset(customerId: string, id: string, tx: Tx): Promise<ResetRow | null> {
  return tx.scaReset.findFirst({ where: { id, customerId } });
}

/** A reset by its id alone (the sandbox liveness page knows nothing else). */
export function findResetById(id: string, tx: Tx): Promise<ResetRow | null> {
  return tx.scaReset.findUnique({ where: { id } });
}

/** Records, once, that the end user completed a reset's liveness check (while it is still open). */
export async function markLivenessCompleted(id: string, open: string[], at: Date, tx: Tx): Promise<boolean> {
  const n = await tx.scaReset.updateMany({
    where: { id, status: { in: open }, livenessCompletedAt: null, expiresAt: { gt: at } },
    data: { livenessCompletedAt: at, updatedAt: at },
  });
  return n.count === 1;
}

/** A guarded status move: only from one of `from`. */
export async function moveReset(
  id: string,
  from: string[],
  data: Prisma.ScaResetUncheckedUpdateInput,
  tx: Tx,
): Promise<boolean> {
  return (await tx.scaReset.updateMany({ where: { id, status: { in: from } }, data })).count === 1;
}
