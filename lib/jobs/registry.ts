import type { Prisma } from '../core/db';
import * as repo from './repository';

// What an instance's worker runs (its job kinds, batch handlers, sweeps) and how: the lease a
// claim holds, the time a handler gets, and the bookkeeping that records each outcome.
export type JobHandler = (
  payload: Prisma.JsonValue,
  job: { id: string; platformId: string; attempts: number },
) => Promise<void>;

/** Runs a job gets before it is marked FAILED; a handler sees `attempts` reach it on its last run. */
export const MAX_ATTEMPTS = 8;

/**
 * A handler for several due jobs of one kind and platform at once (the worker passes what one
 * claim returned). It answers, per job in order, undefined when the job is done or the error that
 * made it fail (the job is then retried like any other).
 */
export type BatchJobHandler = (
  jobs: { payload: Prisma.JsonValue; id: string; platformId: string; attempts: number }[],
) => Promise<unknown[]>;

/**
 * A sweep: timed work found by a query over the domain's own rows (e.g. quotes past their
 * expiry), cheaper than one job row per record when most records never need it. Returns how
 * many records it handled.
 */
export type Sweep = (opts: { platformId?: string }) => Promise<number>;

/** How the worker records what became of a claimed job (the repository; a test may inject failures). */
export interface JobBookkeeping {
  markDoneMany: typeof repo.markDoneMany;
  markRetry: typeof repo.markRetry;
  markFailed: typeof repo.markFailed;
  renewLeases: typeof repo.renewLeases;
  release: typeof repo.release;
}

export interface JobSettings {
  /** How long a claim holds without renewal (renewed every third of it while the job waits or runs). */
  leaseMs: number;
  /** How long a handler (or a batch handler) may run before its jobs are released for retry. */
  handlerTimeoutMs: number;
  bookkeeping: JobBookkeeping;
}

/** An instance's job kinds, batch handlers and sweeps, and how its worker runs them. */
export interface JobRegistry extends JobSettings {
  handlers: Map<string, JobHandler>;
  batch: Map<string, BatchJobHandler>;
  sweeps: Map<string, Sweep>;
}

declare module '../core/context' {
  interface CorridorParts {
    jobs: JobRegistry;
  }
}

export function createJobRegistry(
  settings: Partial<Omit<JobSettings, 'bookkeeping'>> & { bookkeeping?: Partial<JobBookkeeping> } = {},
): JobRegistry {
  return {
    handlers: new Map(),
    batch: new Map(),
    sweeps: new Map(),
    leaseMs: settings.leaseMs ?? (Number(process.env.CORRIDOR_JOB_LEASE_MS) || 30_000),
    handlerTimeoutMs: settings.handlerTimeoutMs ?? (Number(process.env.CORRIDOR_JOB_TIMEOUT_MS) || 10 * 60_000),
    bookkeeping: {
      markDoneMany: repo.markDoneMany,
      markRetry: repo.markRetry,
      markFailed: repo.markFailed,
      renewLeases: repo.renewLeases,
      release: repo.release,
      ...settings.bookkeeping,
    },
  };
}
