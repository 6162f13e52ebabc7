import { platformNow } from '../core/sql';
import { Prisma, db, maintenance, queryDirect, type Tx } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';
import { liveInstancesSql } from '../core/instance';

export interface JobRow {
  id: string;
  /** The instance key of the claim that returned the row (with `attempts`, which claim it is). */
  lockedBy: number;
  platformId: string;
  kind: string;
  payload: Prisma.JsonValue;
  runAt: Date;
  attempts: number;
  clockOffsetMs: bigint;
  clockFrozenAt: Date | null;
  /** The span that enqueued it (traces on: lib/core/tracing.ts), else null. */
  traceParent: string | null;
}

export async function insert(
  row: {
    id: string;
    platformId: string;
    kind: string;
    payload: Prisma.InputJsonValue;
    runAt: Date;
    createdAt: Date;
    traceParent?: string;
  },
  tx: Tx,
): Promise<void> {
  await tx.job.create({ data: row });
}

/** One claim of a job: the row's attempts and instance key as that claim left them. */
export type JobClaim = Pick<JobRow, 'id' | 'attempts' | 'lockedBy'>;

const ours = (c: JobClaim) =>
  Prisma.sql`("id", "attempts", "lockedBy") = (${c.id}, ${c.attempts}::int, ${c.lockedBy}::int)`;

/**
 * Claims up to `limit` due jobs for the process holding instance key `lockedBy`, each leased until
 * `leaseUntil` (renewed while its handler runs: renewLeases). "Due" is judged
 * on each platform's own sandbox clock, so a platform that fast-forwards time sees its timers
 * fire. SKIP LOCKED lets several app processes poll the same table without taking the same job.
 * A RUNNING job whose process is gone (its instance lock is no longer held: lib/core/instance.ts)
 * is due again at once, and so is one whose lease ran out, whether or not its process lives (a
 * hung handler, a process that stopped renewing); one claimed before leases and instance keys
 * existed after five minutes.
 */
export async function claimDue(
  wallNow: Date,
  limit: number,
  lockedBy: number,
  leaseUntil: Date,
  platformId?: string,
): Promise<JobRow[]> {
  const staleBefore = new Date(wallNow.getTime() - 5 * 60_000);
  // Straight through the driver (polled all the time, and once per settled batch).
  return queryDirect<JobRow>(Prisma.sql`
    UPDATE "Job" j SET "state" = 'RUNNING', "lockedAt" = ${wallNow}, "lockedBy" = ${lockedBy}::int,
      "leaseUntil" = ${leaseUntil}, "attempts" = j."attempts" + 1
    FROM (
      SELECT j2."id", p."clockOffsetMs", p."clockFrozenAt" FROM "Job" j2 JOIN "Platform" p ON p."id" = j2."platformId"
      WHERE (j2."state" = 'PENDING' OR (j2."state" = 'RUNNING' AND (
          j2."leaseUntil" < ${wallNow} OR
          CASE WHEN j2."lockedBy" IS NULL THEN j2."lockedAt" < ${staleBefore}
          ELSE j2."lockedBy" <> ALL (ARRAY(${liveInstancesSql})) END)))
        AND j2."runAt" <= ${platformNow('p', wallNow)}
        ${platformId ? Prisma.sql`AND j2."platformId" = ${platformId}` : Prisma.empty}
      ORDER BY j2."runAt", j2."id"
      LIMIT ${limit}
      FOR UPDATE OF j2 SKIP LOCKED
    ) due
    WHERE j."id" = due."id"
    RETURNING j."id", j."lockedBy", j."platformId", j."kind", j."payload", j."runAt", j."attempts", due."clockOffsetMs", due."clockFrozenAt",
      j."traceParent"`);
}

/**
 * Jobs of a platform due on its clock and not finished: waiting, or running in a live process
 * under a lease not yet run out (one whose process is gone or whose lease ran out is claimed
 * again by claimDue, not waited for).
 */
export async function countDueUnfinished(platformId: string, wallNow: Date): Promise<number> {
  const rows = await queryDirect<{ n: bigint }>(Prisma.sql`
    SELECT count(*) AS n FROM "Job" j JOIN "Platform" p ON p."id" = j."platformId"
    WHERE j."platformId" = ${platformId} AND j."runAt" <= ${platformNow('p', wallNow)}
      AND (j."state" = 'PENDING' OR (j."state" = 'RUNNING' AND (j."leaseUntil" IS NULL OR j."leaseUntil" >= ${wallNow})
        AND j."lockedBy" = ANY (ARRAY(${liveInstancesSql}))))`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Several finished jobs in one statement (the worker marks a batch at once). Only claims still
 * held: a job whose lease ran out and was taken over belongs to its new claim.
 */
export async function markDoneMany(claims: JobClaim[], at: Date): Promise<void> {
  if (claims.length)
    await queryDirect(
      Prisma.sql`UPDATE "Job" SET "state" = 'DONE', "doneAt" = ${at}::timestamp(3), "lockedAt" = NULL, "lockedBy" = NULL,
        "leaseUntil" = NULL WHERE "state" = 'RUNNING' AND (${Prisma.join(claims.map(ours), ') OR (')})`,
    );
}

/** Back to waiting until `runAt` (a retry, or a claim given up: its handler timed out, its bookkeeping failed). */
export async function markRetry(claim: JobClaim, runAt: Date, error: string): Promise<void> {
  await queryDirect(Prisma.sql`UPDATE "Job" SET "state" = 'PENDING', "runAt" = ${runAt}::timestamp(3),
    "lastError" = ${error.slice(0, 2000)}, "lockedAt" = NULL, "lockedBy" = NULL, "leaseUntil" = NULL
    WHERE "state" = 'RUNNING' AND ${ours(claim)}`);
}

export async function markFailed(claim: JobClaim, at: Date, error: string): Promise<void> {
  await queryDirect(Prisma.sql`UPDATE "Job" SET "state" = 'FAILED', "doneAt" = ${at}::timestamp(3),
    "lastError" = ${error.slice(0, 2000)}, "lockedAt" = NULL, "lockedBy" = NULL, "leaseUntil" = NULL
    WHERE "state" = 'RUNNING' AND ${ours(claim)}`);
}

/** Extends the leases of claims still held to `until`; answers how many were. */
export async function renewLeases(claims: JobClaim[], until: Date): Promise<number> {
  if (!claims.length) return 0;
  const rows = await queryDirect<{ n: bigint }>(Prisma.sql`WITH renewed AS (
      UPDATE "Job" SET "leaseUntil" = ${until}::timestamp(3)
      WHERE "state" = 'RUNNING' AND (${Prisma.join(claims.map(ours), ') OR (')}) RETURNING 1)
    SELECT count(*) AS n FROM renewed`);
  return Number(rows[0]?.n ?? 0);
}

export interface TableActivity {
  table: string;
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
}

/** Row churn per table since its last ANALYZE / VACUUM (the statistics autovacuum reads). */
/** Whether the server runs its autovacuum daemon (its setting; PGlite reports on but has none). */
export async function autovacuumOn(): Promise<boolean> {
  const rows = await db().$queryRaw<{ on: boolean }[]>`SELECT current_setting('autovacuum') = 'on' AS "on"`;
  return rows[0]?.on === true;
}

export async function tableActivity(): Promise<TableActivity[]> {
  const rows = await db().$queryRaw<{ table: string; live: bigint; dead: bigint; modified: bigint }[]>`
    SELECT relname AS "table", n_live_tup AS live, n_dead_tup AS dead, n_mod_since_analyze AS modified
    FROM pg_stat_user_tables WHERE schemaname = 'public'`;
  return rows.map((r) => ({
    table: r.table,
    live: Number(r.live),
    dead: Number(r.dead),
    modifiedSinceAnalyze: Number(r.modified),
  }));
}

const quoted = (table: string) => `"${table.replace(/"/g, '""')}"`;

// Not bounded by the request statement limit (lib/core/db.ts maintenance): a large table's VACUUM
// may take longer than any request should.
export async function analyze(table: string): Promise<void> {
  await maintenance(`ANALYZE ${quoted(table)}`);
}

export async function vacuum(table: string): Promise<void> {
  await maintenance(`VACUUM (ANALYZE) ${quoted(table)}`);
}

/** Jobs finished before `before` (failed ones are kept for inspection). */
export function purgeDone(before: Date, limit = EVERY_ROW): Promise<number> {
  return deleteBatch('Job', Prisma.sql`"state" = 'DONE' AND "doneAt" < ${before}`, limit);
}

/**
 * Gives a claim up (its bookkeeping failed): the job waits again from `runAt`, for any worker.
 * Should this fail too, the claim is no longer renewed and its lease runs out instead.
 */
export async function release(claim: JobClaim, runAt: Date, error: string): Promise<void> {
  await queryDirect(Prisma.sql`UPDATE "Job" SET "state" = 'PENDING', "runAt" = ${runAt}::timestamp(3),
    "lastError" = ${error.slice(0, 2000)}, "lockedAt" = NULL, "lockedBy" = NULL, "leaseUntil" = NULL
    WHERE "state" = 'RUNNING' AND ${ours(claim)}`);
}
