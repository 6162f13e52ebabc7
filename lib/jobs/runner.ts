import { now } from '../core/clock';
import { errorText, log } from '../core/log';
import { runAs, type Actor } from '../core/context';
import { currentSpanFailed, runLinked } from '../core/tracing';
import { MAX_ATTEMPTS, type JobRegistry } from './registry';
import type { JobClaim, JobRow } from './repository';

// Runs what one claim returned, so that no claimed job is stranded: every claim of the batch is
// leased and renewed until its outcome is recorded (jobs waiting their turn in the batch too), a
// handler that runs past its time has its job released for retry while the worker moves on, and a
// claim whose bookkeeping fails is released — or, should that fail too, no longer renewed, so its
// lease runs out and any worker takes it over.
export async function runClaimed(jobs: JobRegistry, batch: JobRow[], actorOf: (job: JobRow) => Actor): Promise<void> {
  if (!batch.length) return;
  const held = new Map<string, JobClaim>(batch.map((j) => [j.id, claimOf(j)]));
  const renewal = setInterval(() => void renew(jobs, held), Math.max(10, Math.floor(jobs.leaseMs / 3)));
  renewal.unref();
  try {
    // Finished jobs are marked together after the batch: a handler is idempotent (its state
    // moves are guarded), so a crash in between only runs it again, to no effect.
    const done: JobClaim[] = [];
    const startedAt = new Map<string, number>();
    const record = async (job: JobRow, err: unknown) => {
      if (err !== undefined) currentSpanFailed(err);
      // One line per job run: kind, outcome and time (never its payload).
      log().info(
        {
          job: job.kind,
          jobId: job.id,
          platformId: job.platformId,
          attempt: job.attempts,
          outcome: err === undefined ? 'done' : 'failed',
          ...(err === undefined ? {} : { err: errorText(err) }),
          ms: Math.round(performance.now() - (startedAt.get(job.id) ?? performance.now())),
        },
        'job',
      );
      if (err === undefined) return void done.push(claimOf(job));
      held.delete(job.id);
      await settleFailure(jobs, job, err);
    };
    // Kinds with a batch handler get all their jobs of one platform at once.
    const groups = new Map<string, JobRow[]>();
    for (const job of batch) {
      if (jobs.batch.has(job.kind)) {
        const key = `${job.kind} ${job.platformId}`;
        groups.set(key, [...(groups.get(key) ?? []), job]);
        continue;
      }
      const handler = jobs.handlers.get(job.kind);
      // Traces on: the job's own span (its statements under it), linked to the request's that enqueued it.
      const describe = () => ({ attributes: jobAttributes(job), traceParents: [job.traceParent] });
      await runLinked(`job ${job.kind}`, describe, () =>
        runAs(actorOf(job), async () => {
          startedAt.set(job.id, performance.now());
          const err = await attempt(jobs.handlerTimeoutMs, job.kind, async () => {
            if (!handler) throw new Error(`no handler registered for job kind ${job.kind}`);
            await handler(job.payload, { id: job.id, platformId: job.platformId, attempts: job.attempts });
          });
          await record(job, err);
        }),
      );
    }
    for (const group of groups.values()) {
      const describe = () => ({
        attributes: { ...jobAttributes(group[0]), 'corridor.job.count': group.length },
        traceParents: group.map((j) => j.traceParent),
      });
      await runLinked(`job ${group[0].kind}`, describe, () =>
        runAs(actorOf(group[0]), async () => {
          for (const job of group) startedAt.set(job.id, performance.now());
          let results: unknown[] = [];
          const err = await attempt(jobs.handlerTimeoutMs, group[0].kind, async () => {
            results = await jobs.batch.get(group[0].kind)!(
              group.map((j) => ({ payload: j.payload, id: j.id, platformId: j.platformId, attempts: j.attempts })),
            );
          });
          for (const [i, job] of group.entries()) await record(job, err ?? results[i]);
        }),
      );
    }
    await settleDone(jobs, done);
  } finally {
    clearInterval(renewal);
  }
}

const jobAttributes = (job: JobRow) => ({
  'corridor.job.kind': job.kind,
  'corridor.job.id': job.id,
  'corridor.job.attempt': job.attempts,
  'corridor.platform_id': job.platformId,
});
const claimOf = (job: JobRow): JobClaim => ({ id: job.id, attempts: job.attempts, lockedBy: job.lockedBy });
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function renew(jobs: JobRegistry, held: Map<string, JobClaim>): Promise<void> {
  try {
    await jobs.bookkeeping.renewLeases([...held.values()], new Date(Date.now() + jobs.leaseMs));
  } catch (err) {
    // The next renewal tries again; if none gets through, the leases run out and others take over.
    log().error({ err: messageOf(err) }, 'job lease renewal failed');
  }
}

/** Runs `fn`; answers undefined when it finished in time, else what it threw (or that it hung). */
async function attempt(timeoutMs: number, kind: string, fn: () => Promise<void>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`job ${kind} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // A hung handler is left behind (nothing can stop a promise); its job goes back to the queue
    // and, handlers being idempotent, a later run does what it would have done.
    await Promise.race([fn(), timedOut]);
    return undefined;
  } catch (err) {
    return err ?? new Error('job failed');
  } finally {
    clearTimeout(timer);
  }
}

async function settleFailure(jobs: JobRegistry, job: JobRow, err: unknown): Promise<void> {
  const message = messageOf(err);
  const claim = claimOf(job);
  try {
    if (job.attempts >= MAX_ATTEMPTS) {
      log().error({ job: job.kind, jobId: job.id, platformId: job.platformId, err: message }, 'job failed for good');
      await jobs.bookkeeping.markFailed(claim, now(), message);
    } else {
      await jobs.bookkeeping.markRetry(claim, new Date(now().getTime() + 1000 * 2 ** job.attempts), message);
    }
  } catch (bookkeeping) {
    await release(jobs, [claim], `${message} (then recording it failed: ${messageOf(bookkeeping)})`);
  }
}

async function settleDone(jobs: JobRegistry, done: JobClaim[]): Promise<void> {
  try {
    await jobs.bookkeeping.markDoneMany(done, now());
  } catch (err) {
    // Released, the jobs run again: to no effect, their handlers being idempotent.
    await release(jobs, done, `done, but recording it failed: ${messageOf(err)}`);
  }
}

async function release(jobs: JobRegistry, claims: JobClaim[], why: string): Promise<void> {
  log().error({ jobs: claims.map((c) => c.id), why }, 'releasing jobs');
  for (const claim of claims) {
    try {
      await jobs.bookkeeping.release(claim, new Date(Date.now() + 1000), why);
    } catch (err) {
      // No longer renewed: the lease runs out within leaseMs and any worker takes the job.
      log().error({ jobId: claim.id, err: messageOf(err) }, 'cannot release a job (its lease will run out)');
    }
  }
}
