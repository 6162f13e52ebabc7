import { newId } from '../ids';
import { now } from '../clock';
import { runAs } from '../context';
import type { Prisma, Tx } from '../db';
import * as repo from './repository';

// The database-polled job queue: timed transitions (sandbox delays, expiries), background
// imports and webhook delivery. A job is written in the same transaction as the change that
// schedules it, so it exists exactly when the change does.
export type JobHandler = (payload: Prisma.JsonValue, job: { id: string; platformId: string; attempts: number }) => Promise<void>;

const handlers = new Map<string, JobHandler>();
/** Runs a job gets before it is marked FAILED; a handler sees `attempts` reach it on its last run. */
export const MAX_ATTEMPTS = 8;

export function registerJob(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

/**
 * A sweep: timed work found by a query over the domain's own rows (e.g. quotes past their
 * expiry), cheaper than one job row per record when most records never need it. Returns how
 * many records it handled.
 */
export type Sweep = (opts: { platformId?: string }) => Promise<number>;
const sweeps = new Map<string, Sweep>();

export function registerSweep(name: string, sweep: Sweep): void {
  sweeps.set(name, sweep);
}

/** A Job row ready to insert (for statements that write it with other rows). */
export function jobRow(job: { platformId: string; kind: string; payload: Prisma.InputJsonValue; runAt?: Date }) {
  const at = now();
  return { id: newId('Job'), platformId: job.platformId, kind: job.kind, payload: job.payload, runAt: job.runAt ?? at, createdAt: at };
}

/** A job as a statement fragment, written by a payment step together with its other rows. */
export function jobSql(job: { platformId: string; kind: string; payload: Prisma.InputJsonValue; runAt?: Date }): Prisma.Sql {
  return repo.insertSql(jobRow(job));
}

export async function enqueue(tx: Tx, job: { platformId: string; kind: string; payload: Prisma.InputJsonValue; runAt?: Date }): Promise<string> {
  const row = jobRow(job);
  await repo.insert(row, tx);
  return row.id;
}

/** Runs every job and sweep due now; returns how many ran. Safe to call from several processes. */
export async function runDueJobs(opts: { limit?: number; platformId?: string } = {}): Promise<number> {
  await import('./handlers'); // every domain's job kinds and sweeps, registered on import
  let total = 0;
  for (const sweep of sweeps.values()) total += await sweep({ platformId: opts.platformId });
  for (;;) {
    const batch = await repo.claimDue(new Date(), opts.limit ?? 20, opts.platformId);
    // Finished jobs are marked together after the batch: a handler is idempotent (its state
    // moves are guarded), so a crash in between only runs it again, to no effect.
    const done: string[] = [];
    for (const job of batch) {
      const handler = handlers.get(job.kind);
      await runAs({ kind: 'system', platformId: job.platformId, clockOffsetMs: BigInt(job.clockOffsetMs) }, async () => {
        try {
          if (!handler) throw new Error(`no handler registered for job kind ${job.kind}`);
          await handler(job.payload, { id: job.id, platformId: job.platformId, attempts: job.attempts });
          done.push(job.id);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          if (job.attempts >= MAX_ATTEMPTS) {
            console.error(`[corridor] job ${job.kind} ${job.id} failed for good:`, message);
            await repo.markFailed(job.id, now(), message);
          } else {
            await repo.markRetry(job.id, new Date(now().getTime() + 1000 * 2 ** job.attempts), message);
          }
        }
      });
    }
    await repo.markDoneMany(done, now());
    total += batch.length;
    if (batch.length < (opts.limit ?? 20)) return total;
  }
}
