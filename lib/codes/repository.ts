import { db, Prisma, queryIn, type Tx } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';

// Storage of one-time codes (model OneTimeCode). Every attempt is one conditional UPDATE: the row
// lock PostgreSQL takes for it serializes concurrent attempts on one code, and each re-checks the
// state and count the previous one left, so no more than maxAttempts wrong codes are ever compared.
export type CodeRow = Prisma.OneTimeCodeGetPayload<object>;

export interface NewCode {
  id: string;
  platformId: string;
  purpose: string;
  subject: string;
  binding: string | null;
  codeHash: string;
  maxAttempts: number;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Serializes issuing for one purpose and subject until the transaction ends, so the resend
 * limits see every code issued before (a transaction-scoped advisory lock; no row to lock yet).
 */
export async function lockSubject(purpose: string, subject: string, tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`code:${purpose}:${subject}`}, 0))`;
}

/** Codes issued for a subject since `since`, oldest first (for the resend limits). */
export function issuedSince(purpose: string, subject: string, since: Date, tx: Tx) {
  return tx.oneTimeCode.findMany({
    where: { purpose, subject, createdAt: { gte: since } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { createdAt: true, binding: true },
  });
}

/** Retires the live code of a subject, if any (a new one is issued, or the subject is gone). */
export async function supersede(purpose: string, subject: string, tx: Tx): Promise<void> {
  await tx.oneTimeCode.updateMany({ where: { purpose, subject, state: 'ACTIVE' }, data: { state: 'SUPERSEDED' } });
}

export async function insert(row: NewCode, tx: Tx): Promise<void> {
  await tx.oneTimeCode.create({ data: row });
}

export interface Attempt {
  id: string;
  state: 'ACTIVE' | 'USED' | 'EXHAUSTED';
  attempts: number;
  maxAttempts: number;
}

/**
 * One attempt, in one statement: the live, unexpired, not yet exhausted code of the subject (and
 * binding) is marked USED when `codeHash` is its hash, else its wrong attempts grow by one and it
 * is EXHAUSTED at the cap. No row: there was nothing to try (see latest for why).
 */
export async function attempt(
  q: { purpose: string; subject: string; binding: string | null; codeHash: string; at: Date },
  tx: Tx,
): Promise<Attempt | null> {
  const rows = await queryIn<Attempt>(
    tx,
    Prisma.sql`
    UPDATE "OneTimeCode" SET
      "attempts" = "attempts" + CASE WHEN "codeHash" = ${q.codeHash} THEN 0 ELSE 1 END,
      "state" = CASE WHEN "codeHash" = ${q.codeHash} THEN 'USED'
                     WHEN "attempts" + 1 >= "maxAttempts" THEN 'EXHAUSTED' ELSE 'ACTIVE' END,
      "usedAt" = CASE WHEN "codeHash" = ${q.codeHash} THEN ${q.at}::timestamp(3) END
    WHERE "purpose" = ${q.purpose} AND "subject" = ${q.subject} AND "state" = 'ACTIVE'
      AND "binding" IS NOT DISTINCT FROM ${q.binding}::text
      AND "expiresAt" > ${q.at}::timestamp(3) AND "attempts" < "maxAttempts"
    RETURNING "id", "state", "attempts", "maxAttempts"`,
  );
  return rows[0] ?? null;
}

/** The subject's most recent code (why an attempt found nothing to try). */
export function latest(purpose: string, subject: string, tx: Tx): Promise<CodeRow | null> {
  return tx.oneTimeCode.findFirst({
    where: { purpose, subject },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** The live code of a subject, if any. */
export function active(purpose: string, subject: string, tx: Tx): Promise<CodeRow | null> {
  return tx.oneTimeCode.findFirst({ where: { purpose, subject, state: 'ACTIVE' } });
}

/** Removes a code that could not be delivered, so it neither works nor counts against resends. */
export async function discard(id: string): Promise<void> {
  await db().oneTimeCode.deleteMany({ where: { id, state: 'ACTIVE' } });
}

/** Codes that expired before `before`. */
export function purgeExpired(before: Date, limit = EVERY_ROW): Promise<number> {
  return deleteBatch('OneTimeCode', Prisma.sql`"expiresAt" < ${before}`, limit);
}
