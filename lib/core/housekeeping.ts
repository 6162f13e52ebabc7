import { Prisma, queryDirect } from './db';
import { currentCorridor } from './context';

// Housekeeping (retention, running-totals folds, vacuum) shares the database with requests, and
// must never starve them (issue 28 point 9: one unpaced retention pass deleting 3.7M events took
// GET /transactions?customerId= from 4 ms to 31 s for minutes). So every background pass works in
// small batches, each its own short statement (its locks and its share of the database last one
// batch), pauses after each batch for a time proportional to what the batch took (longer while
// requests queue for a connection), and stops when its time budget is spent; what is left waits
// for the next pass. A pass therefore ends at most one batch past its budget, and between two
// batches the database is free for requests.

/** A limit that takes every matching row (a caller that wants everything gone at once). */
export const EVERY_ROW = Number.MAX_SAFE_INTEGER;

export interface Pace {
  /** Rows (or units of work) per batch. */
  batch: number;
  /** Wall time a pass may take, pauses included; the batch under way when it runs out finishes. */
  budgetMs: number;
  /** Pause after a batch, as a multiple of the batch's own time (1: the pass uses at most half the time). */
  pauseRatio: number;
}

/** The pace from CORRIDOR_HOUSEKEEPING_BATCH / _BUDGET_MS / _PAUSE (docs/configuration.md). */
export function housekeepingPace(env: Record<string, string | undefined> = process.env): Pace {
  const num = (v: string | undefined, fallback: number, min: number) => {
    const n = Number(v);
    return v && Number.isFinite(n) && n >= min ? n : fallback;
  };
  return {
    batch: Math.floor(num(env.CORRIDOR_HOUSEKEEPING_BATCH, 1000, 1)),
    budgetMs: num(env.CORRIDOR_HOUSEKEEPING_BUDGET_MS, 5000, 10),
    pauseRatio: num(env.CORRIDOR_HOUSEKEEPING_PAUSE, 1, 0),
  };
}

/** While requests wait for a database connection, the pause after a batch is this many times longer. */
export const BUSY_FACTOR = 4;

export interface PassReport {
  task: string;
  /** Rows handled in all. */
  rows: number;
  /** Rows handled by each batch, in order. */
  batches: number[];
  /** Wall time of the pass, pauses included. */
  ms: number;
  /** True when the work ran out; false when the budget did (the rest waits for the next pass). */
  complete: boolean;
}

export interface PassHooks {
  /** Whether requests are waiting (default: callers queue for one of this instance's connections). */
  busy?: () => boolean;
  /** Called after each batch (tests watch the batches). */
  onBatch?: (rows: number, ms: number) => void;
  sleep?: (ms: number) => Promise<void>;
  /** A worker shutting down: the pass ends after the batch under way. */
  stopping?: () => boolean;
}

const poolBusy = () => {
  const pool = currentCorridor().database.pool as { waitingCount?: number } | undefined;
  return (pool?.waitingCount ?? 0) > 0;
};

/**
 * Runs `step` (which handles at most `limit` rows and answers how many it handled) batch after
 * batch under `pace`, until a batch comes back short (nothing left) or the budget is spent.
 * Records the pass in the instance's metrics.
 */
export async function pacedPass(
  task: string,
  step: (limit: number) => Promise<number>,
  pace: Pace = housekeepingPace(),
  hooks: PassHooks = {},
): Promise<PassReport> {
  const busy = hooks.busy ?? poolBusy;
  const sleep = hooks.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = performance.now();
  const report: PassReport = { task, rows: 0, batches: [], ms: 0, complete: false };
  try {
    for (;;) {
      const t = performance.now();
      const n = await step(pace.batch);
      const took = performance.now() - t;
      report.rows += n;
      report.batches.push(n);
      hooks.onBatch?.(n, took);
      if (n < pace.batch) {
        report.complete = true;
        break;
      }
      const pause = took * pace.pauseRatio * (busy() ? BUSY_FACTOR : 1);
      // No point pausing for a batch the budget will not allow.
      if (performance.now() - started + pause >= pace.budgetMs || hooks.stopping?.()) break;
      if (pause > 0) await sleep(pause);
      if (hooks.stopping?.()) break;
    }
  } finally {
    report.ms = performance.now() - started;
    currentCorridor().metrics.housekeeping(report);
  }
  return report;
}

/**
 * Deletes at most `limit` rows of `table` matching `where`, in one statement; answers how many.
 * Rows another process is deleting at the same moment (two servers' housekeeping) are skipped,
 * not waited for: each row goes once, and neither pass queues behind the other.
 */
export async function deleteBatch(table: string, where: Prisma.Sql, limit: number): Promise<number> {
  const t = Prisma.raw(`"${table}"`);
  const rows = await queryDirect<{ n: number }>(Prisma.sql`
    WITH gone AS (
      DELETE FROM ${t} WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM ${t} WHERE ${where} LIMIT ${limit} FOR UPDATE SKIP LOCKED))
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  return Number(rows[0]?.n ?? 0);
}

/** Runs `step` until nothing is left, unpaced (scripts and tests that want everything gone now). */
export async function drain(step: (limit: number) => Promise<number>, limit = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step(limit);
    total += n;
    if (n < limit) return total;
  }
}
