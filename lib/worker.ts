import { errorText, log } from './core/log';
import { deliverDueWebhooks } from './webhooks/service';
import { maintainDatabase, ownMaintenanceNeeded } from './jobs/maintenance';
import { purgeStale } from './jobs/retention';
import { runDueJobs } from './jobs/queue';
import { foldRunningTotals } from './core/running-totals';
import { within, type Corridor } from './core/context';
import { db } from './core/db';
import { instanceKey } from './core/instance';
import { beat } from './ops/heartbeat';
import { pacedPass } from './core/housekeeping';

const RETENTION_EVERY_MS = 10 * 60_000;
/** After a retention pass that ran out of budget: the next one starts this much later. */
const RETENTION_RESUME_MS = 5_000;

// The background worker of one Corridor instance (started with the server, by its start()):
// polls the job table and does housekeeping, everything under its instance. Several server
// processes may run it at once (jobs are claimed under leases with SKIP LOCKED).
export interface Worker {
  start(intervalMs?: number): void;
  /** Stops polling and waits for the passes under way. */
  stop(): Promise<void>;
}

export function createWorker(corridor: Corridor): Worker {
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  let lastHousekeeping = 0;
  let retentionBehind = false;
  let lastMaintenance = 0;
  let lastFold = 0;
  // One pass of each kind at a time; what runs is awaited on stop.
  const passes = { jobs: null, webhooks: null, housekeeping: null, fold: null, heartbeat: null } as Record<
    string,
    Promise<void> | null
  >;
  const once = (name: string, fn: () => Promise<void>) => {
    if (passes[name]) return;
    passes[name] = within(corridor, fn)
      .catch((err) => log().error({ pass: name, err: errorText(err) }, 'worker pass failed'))
      .finally(() => (passes[name] = null));
  };

  // Housekeeping has its own pass: under sustained load the job pass may not return for a long
  // time, and the embedded database's statistics must keep up exactly then. Every part of it runs
  // in paced batches within a time budget (lib/core/housekeeping.ts), so it never starves
  // requests; a retention pass that ran out of budget goes on a few seconds later, not in ten
  // minutes, so a large backlog (a first start on a big database) is worked off steadily.
  const stop = { stopping: () => stopping };
  const keepHouse = async () => {
    if (Date.now() - lastHousekeeping > (retentionBehind ? RETENTION_RESUME_MS : RETENTION_EVERY_MS)) {
      const reports = await purgeStale(new Date(), undefined, stop);
      retentionBehind = reports.some((r) => !r.complete);
      lastHousekeeping = Date.now();
    }
    if (Date.now() - lastMaintenance > 10_000 && (await ownMaintenanceNeeded())) {
      await maintainDatabase(undefined, stop);
      lastMaintenance = Date.now();
    }
  };
  // The overview's running totals (lib/core/running-totals.ts): what writers appended since,
  // folded into one row per key, so that reading them stays a few rows. A pass of its own, so a
  // long retention pass never holds the folds back.
  const fold = async () => {
    if (Date.now() - lastFold < 5_000) return;
    await pacedPass('runningTotals', (limit) => foldRunningTotals(undefined, limit), undefined, stop);
    lastFold = Date.now();
  };

  const tick = () => {
    // The heartbeat /api/ready reads: this instance's worker is alive (a write every few seconds).
    once('heartbeat', async () => beat(db(), await instanceKey()));
    // Webhook sends wait on other people's servers (up to the attempt timeout), so they run
    // beside the job pass rather than in it: a slow receiver never delays timed transitions.
    once('webhooks', () => deliverDueWebhooks({ stopping: () => stopping }).then(() => {}));
    once('housekeeping', keepHouse);
    once('fold', fold);
    once('jobs', () => runDueJobs({ stopping: () => stopping }).then(() => {}));
  };

  return {
    start(intervalMs = Number(process.env.CORRIDOR_WORKER_INTERVAL_MS || 1000)) {
      if (timer) return;
      stopping = false;
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.all(Object.values(passes));
    },
  };
}
