import { newId } from '../core/ids';
import { clockOf, now } from '../core/clock';
import { runAs } from '../core/context';
import type { Prisma, Tx } from '../core/db';
import type { RowWrite } from '../core/sql';
import { instanceKey } from '../core/instance';
import * as repo from './repository';

// The database-polled job queue: timed transitions (sandbox delays, expiries), background
// imports and webhook delivery. A job is written in the same transaction as the change that
// schedules it, so it exists exactly when the change does.
export type JobHandler = (
  payload: Prisma.JsonValue,
  job: { id: string; platformId: string; attempts: number },
) => Promise<void>;

// The registries live on globalThis: Next.js bundles routes separately, and every bundle must see
// what lib/wiring.ts registered.
const registries = globalThis as unknown as {
  __corridorJobs?: {
    handlers: Map<string, JobHandler>;
    batch: Map<string, BatchJobHandler>;
    sweeps: Map<string, Sweep>;
  };
};
const registry = (registries.__corridorJobs ??= { handlers: new Map(), batch: new Map(), sweeps: new Map() });
const handlers = registry.handlers;
/** Runs a job gets before it is marked FAILED; a handler sees `attempts` reach it on its last run. */
export const MAX_ATTEMPTS = 8;

export function registerJob(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

/**
 * A handler for several due jobs of one kind and platform at once (the worker passes what one
 * claim returned). It answers, per job in order, undefined when the job is done or the error that
 * made it fail (the job is then retried like any other).
 */
export type BatchJobHandler = (
  jobs: { payload: Prisma.JsonValue; id: string; platformId: string; attempts: number }[],
) => Promise<unknown[]>;
const batchHandlers = registry.batch;

export function registerBatchJob(kind: string, handler: BatchJobHandler): void {
  batchHandlers.set(kind, handler);
}

/**
 * A sweep: timed work found by a query over the domain's own rows (e.g. quotes past their
 * expiry), cheaper than one job row per record when most records never need it. Returns how
 * many records it handled.
 */
export type Sweep = (opts: { platformId?: string }) => Promise<number>;
const sweeps = registry.sweeps;

export function registerSweep(name: string, sweep: Sweep): void {
  sweeps.set(name, sweep);
}

/** A Job row ready to insert (for statements that write it with other rows). */
export function jobRow(job: { platformId: string; kind: string; payload: Prisma.InputJsonValue; runAt?: Date }) {
  const at = now();
  return {
    id: newId('Job'),
    platformId: job.platformId,
    kind: job.kind,
    payload: job.payload,
    runAt: job.runAt ?? at,
    createdAt: at,
  };
}

/** A job as a row of a step written in one statement (ledger.runStep). */
export function jobWrite(job: {
  platformId: string;
  kind: string;
  payload: Prisma.InputJsonValue;
  runAt?: Date;
}): RowWrite {
  return { table: 'Job', row: jobRow(job) };
}

export async function enqueue(
  tx: Tx,
  job: { platformId: string; kind: string; payload: Prisma.InputJsonValue; runAt?: Date },
): Promise<string> {
  const row = jobRow(job);
  await repo.insert(row, tx);
  return row.id;
}

/** How many of a platform's jobs are due on its clock and not yet done: waiting, or running somewhere. */
export function dueUnfinished(platformId: string): Promise<number> {
  return repo.countDueUnfinished(platformId, new Date());
}

/** Runs every job and sweep due now; returns how many ran. Safe to call from several processes. */
export async function runDueJobs(opts: { limit?: number; platformId?: string } = {}): Promise<number> {
  let total = 0;
  for (const sweep of sweeps.values()) total += await sweep({ platformId: opts.platformId });
  for (;;) {
    const batch = await repo.claimDue(new Date(), opts.limit ?? 20, await instanceKey(), opts.platformId);
    // Finished jobs are marked together after the batch: a handler is idempotent (its state
    // moves are guarded), so a crash in between only runs it again, to no effect.
    const done: string[] = [];
    const finish = async (job: repo.JobRow, err: unknown) => {
      if (err === undefined) return void done.push(job.id);
      const message = err instanceof Error ? err.message : String(err);
      if (job.attempts >= MAX_ATTEMPTS) {
        console.error(`[corridor] job ${job.kind} ${job.id} failed for good:`, message);
        await repo.markFailed(job.id, now(), message);
      } else {
        await repo.markRetry(job.id, new Date(now().getTime() + 1000 * 2 ** job.attempts), message);
      }
    };
    const context = (job: repo.JobRow) => ({
      kind: 'system' as const,
      platformId: job.platformId,
      ...clockOf(job),
    });
    // Kinds with a batch handler get all their jobs of one platform at once.
    const groups = new Map<string, repo.JobRow[]>();
    for (const job of batch) {
      if (batchHandlers.has(job.kind)) {
        const key = `${job.kind} ${job.platformId}`;
        const group = groups.get(key);
        if (group) group.push(job);
        else groups.set(key, [job]);
        continue;
      }
      const handler = handlers.get(job.kind);
      await runAs(context(job), async () => {
        try {
          if (!handler) throw new Error(`no handler registered for job kind ${job.kind}`);
          await handler(job.payload, { id: job.id, platformId: job.platformId, attempts: job.attempts });
          await finish(job, undefined);
        } catch (err) {
          await finish(job, err ?? new Error('job failed'));
        }
      });
    }
    for (const jobs of groups.values()) {
      await runAs(context(jobs[0]), async () => {
        let results: unknown[];
        try {
          results = await batchHandlers.get(jobs[0].kind)!(
            jobs.map((j) => ({ payload: j.payload, id: j.id, platformId: j.platformId, attempts: j.attempts })),
          );
        } catch (err) {
          results = jobs.map(() => err ?? new Error('job batch failed'));
        }
        for (const [i, job] of jobs.entries()) await finish(job, results[i]);
      });
    }
    await repo.markDoneMany(done, now());
    total += batch.length;
    if (batch.length < (opts.limit ?? 20)) return total;
  }
}
