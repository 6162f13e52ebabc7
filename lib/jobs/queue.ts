import { newId } from '../core/ids';
import { clockOf, now } from '../core/clock';
import { currentCorridor } from '../core/context';
import type { Prisma, Tx } from '../core/db';
import type { RowWrite } from '../core/sql';
import { instanceKey } from '../core/instance';
import { currentTraceParent } from '../core/tracing';
import * as repo from './repository';
import { runClaimed } from './runner';
import type { BatchJobHandler, JobHandler, Sweep } from './registry';

// The database-polled job queue: timed transitions (sandbox delays, expiries), background
// imports and webhook delivery. A job is written in the same transaction as the change that
// schedules it, so it exists exactly when the change does.
export {
  MAX_ATTEMPTS,
  createJobRegistry,
  type BatchJobHandler,
  type JobBookkeeping,
  type JobHandler,
  type JobRegistry,
  type JobSettings,
  type Sweep,
} from './registry';

const registry = () => currentCorridor().jobs;

export function registerJob(kind: string, handler: JobHandler): void {
  registry().handlers.set(kind, handler);
}

export function registerBatchJob(kind: string, handler: BatchJobHandler): void {
  registry().batch.set(kind, handler);
}

export function registerSweep(name: string, sweep: Sweep): void {
  registry().sweeps.set(name, sweep);
}

/** A Job row ready to insert (for statements that write it with other rows). */
export function jobRow(job: { platformId: string; kind: string; payload: Prisma.InputJsonValue; runAt?: Date }) {
  const at = now();
  const row = {
    id: newId('Job'),
    platformId: job.platformId,
    kind: job.kind,
    payload: job.payload,
    runAt: job.runAt ?? at,
    createdAt: at,
  };
  // Traces on: the span enqueuing it (a request's), which the worker's span for the job links
  // back to (lib/jobs/runner.ts). Off, the row is what it always was.
  const traceParent = currentTraceParent();
  return traceParent ? { ...row, traceParent } : row;
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

/**
 * Runs every job and sweep due now on the current instance; returns how many ran. Safe to call
 * from several processes (and instances): each job is claimed by one of them under a lease.
 */
export async function runDueJobs(
  opts: { limit?: number; platformId?: string; stopping?: () => boolean } = {},
): Promise<number> {
  const jobs = registry();
  const limit = opts.limit ?? 20;
  let total = 0;
  for (const sweep of jobs.sweeps.values()) total += await sweep({ platformId: opts.platformId });
  for (;;) {
    // A worker shutting down claims nothing more; what it claimed it finishes.
    if (opts.stopping?.()) return total;
    const wall = new Date();
    const batch = await repo.claimDue(
      wall,
      limit,
      await instanceKey(),
      new Date(wall.getTime() + jobs.leaseMs),
      opts.platformId,
    );
    await runClaimed(jobs, batch, (job) => ({ kind: 'system' as const, platformId: job.platformId, ...clockOf(job) }));
    total += batch.length;
    if (batch.length < limit) return total;
  }
}
