import { kysely, platformNowOf, sql } from '../core/sql';
import { prepared } from '../core/prepared';
import { Prisma, db, maintenance, queryDirect, type Tx } from '../core/db';
import { deleteBatch, EVERY_ROW } from '../core/housekeeping';
import { liveInstances } from '../core/instance';

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
  const values = { wallNow, staleBefore, limit, lockedBy, leaseUntil, platformId: platformId ?? '' };
  // Straight through the driver (polled all the time, and once per settled batch).
  return queryDirect<JobRow>((platformId ? claimOfPlatform : claim)(values));
}
type ClaimValues = {
  wallNow: Date;
  staleBefore: Date;
  limit: number;
  lockedBy: number;
  leaseUntil: Date;
  platformId: string;
};
const dueOf = (p: ClaimValues) =>
  kysely
    .selectFrom('Job as j2')
    .innerJoin('Platform as p', 'p.id', 'j2.platformId')
    .select(['j2.id', 'p.clockOffsetMs', 'p.clockFrozenAt'])
    .where((eb) =>
      eb.or([
        eb('j2.state', '=', 'PENDING'),
        eb.and([
          eb('j2.state', '=', 'RUNNING'),
          eb.or([
            eb('j2.leaseUntil', '<', p.wallNow),
            sql<boolean>`CASE WHEN ${eb.ref('j2.lockedBy')} IS NULL THEN ${eb.ref('j2.lockedAt')} < ${p.staleBefore}
              ELSE ${eb.ref('j2.lockedBy')} <> ALL (ARRAY(${liveInstances})) END`,
          ]),
        ]),
      ]),
    )
    .where('j2.runAt', '<=', platformNowOf('p', p.wallNow))
    .orderBy('j2.runAt')
    .orderBy('j2.id')
    .limit(p.limit)
    .forUpdate('j2')
    .skipLocked();
const claimOf = (due: ReturnType<typeof dueOf>, p: ClaimValues) =>
  kysely
    .updateTable('Job as j')
    .from(due.as('due'))
    .set((eb) => ({
      state: 'RUNNING',
      lockedAt: p.wallNow,
      lockedBy: p.lockedBy,
      leaseUntil: p.leaseUntil,
      attempts: eb('j.attempts', '+', 1),
    }))
    .whereRef('j.id', '=', 'due.id')
    .returning([
      'j.id',
      'j.lockedBy',
      'j.platformId',
      'j.kind',
      'j.payload',
      'j.runAt',
      'j.attempts',
      'due.clockOffsetMs',
      'due.clockFrozenAt',
      'j.traceParent',
    ]);
const claim = prepared((p: ClaimValues) => claimOf(dueOf(p), p));
const claimOfPlatform = prepared((p: ClaimValues) => claimOf(dueOf(p).where('j2.platformId', '=', p.platformId), p));

/**
 * Jobs of a platform due on its clock and not finished: waiting, or running in a live process
 * under a lease not yet run out (one whose process is gone or whose lease ran out is claimed
 * again by claimDue, not waited for).
 */
export async function countDueUnfinished(platformId: string, wallNow: Date): Promise<number> {
  const rows = await queryDirect<{ n: bigint }>(dueUnfinished({ platformId, wallNow }));
  return Number(rows[0]?.n ?? 0);
}
const dueUnfinished = prepared((p: { platformId: string; wallNow: Date }) =>
  kysely
    .selectFrom('Job as j')
    .innerJoin('Platform as p', 'p.id', 'j.platformId')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('j.platformId', '=', p.platformId)
    .where('j.runAt', '<=', platformNowOf('p', p.wallNow))
    .where((eb) =>
      eb.or([
        eb('j.state', '=', 'PENDING'),
        eb.and([
          eb('j.state', '=', 'RUNNING'),
          eb.or([eb('j.leaseUntil', 'is', null), eb('j.leaseUntil', '>=', p.wallNow)]),
          sql<boolean>`${eb.ref('j.lockedBy')} = ANY (ARRAY(${liveInstances}))`,
        ]),
      ]),
    ),
);

/**
 * Several finished jobs in one statement (the worker marks a batch at once). Only claims still
 * held: a job whose lease ran out and was taken over belongs to its new claim.
 */
export async function markDoneMany(claims: JobClaim[], at: Date): Promise<void> {
  if (claims.length) await queryDirect(markDone({ ...claimArrays(claims), at }));
}
type ClaimArrays = { ids: string[]; attempts: number[]; lockedBy: number[] };
const claimArrays = (claims: JobClaim[]): ClaimArrays => ({
  ids: claims.map((c) => c.id),
  attempts: claims.map((c) => c.attempts),
  lockedBy: claims.map((c) => c.lockedBy),
});
/** The rows of the claims given that are still running under those claims (fixed text, any number of claims). */
const heldOf = (p: ClaimArrays) =>
  sql<boolean>`"state" = 'RUNNING' AND ("id", "attempts", "lockedBy") IN (
    SELECT * FROM unnest(${p.ids}::text[], ${p.attempts}::int[], ${p.lockedBy}::int[]))`;
const markDone = prepared((p: ClaimArrays & { at: Date }) =>
  kysely
    .updateTable('Job')
    .set({ state: 'DONE', doneAt: p.at, lockedAt: null, lockedBy: null, leaseUntil: null })
    .where(heldOf(p)),
);
/** Back to waiting from `runAt`, for claims still held; the error kept. */
const unclaim = prepared((p: ClaimArrays & { runAt: Date; error: string }) =>
  kysely
    .updateTable('Job')
    .set({
      state: 'PENDING',
      runAt: p.runAt,
      lastError: p.error,
      lockedAt: null,
      lockedBy: null,
      leaseUntil: null,
    })
    .where(heldOf(p)),
);
const renew = prepared((p: ClaimArrays & { until: Date }) =>
  kysely
    .with('renewed', (k) => k.updateTable('Job').set({ leaseUntil: p.until }).where(heldOf(p)).returning('id'))
    .selectFrom('renewed')
    .select((eb) => eb.fn.countAll<bigint>().as('n')),
);

/** Back to waiting until `runAt` (a retry, or a claim given up: its handler timed out, its bookkeeping failed). */
export async function markRetry(claim: JobClaim, runAt: Date, error: string): Promise<void> {
  await queryDirect(unclaim({ ...claimArrays([claim]), runAt, error: error.slice(0, 2000) }));
}

/** Failed for good at `at` (its runAt kept as it was). */
export async function markFailed(claim: JobClaim, at: Date, error: string): Promise<void> {
  await queryDirect(failed({ ...claimArrays([claim]), at, error: error.slice(0, 2000) }));
}
const failed = prepared((p: ClaimArrays & { at: Date; error: string }) =>
  kysely
    .updateTable('Job')
    .set({ state: 'FAILED', doneAt: p.at, lastError: p.error, lockedAt: null, lockedBy: null, leaseUntil: null })
    .where(heldOf(p)),
);

/** Extends the leases of claims still held to `until`; answers how many were. */
export async function renewLeases(claims: JobClaim[], until: Date): Promise<number> {
  if (!claims.length) return 0;
  const rows = await queryDirect<{ n: bigint }>(renew({ ...claimArrays(claims), until }));
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
  await queryDirect(unclaim({ ...claimArrays([claim]), runAt, error: error.slice(0, 2000) }));
}
