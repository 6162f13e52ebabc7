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
  let lastMaintenance = 0;
  let lastFold = 0;
  // One pass of each kind at a time; what runs is awaited on stop.
  const passes = { jobs: null, webhooks: null, housekeeping: null, heartbeat: null } as Record<
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
  // time, and the embedded database's statistics must keep up exactly then.
  const keepHouse = async () => {
    if (Date.now() - lastHousekeeping > 10 * 60_000) {
      lastHousekeeping = Date.now();
      await purgeStale(new Date());
    }
    // The overview's running totals (lib/core/running-totals.ts): what writers appended since,
    // folded into one row per key, so that reading them stays a few rows.
    if (Date.now() - lastFold > 5_000) {
      lastFold = Date.now();
      await foldRunningTotals();
    }
    if (Date.now() - lastMaintenance > 10_000 && (await ownMaintenanceNeeded())) {
      lastMaintenance = Date.now();
      await maintainDatabase();
    }
  };

  const tick = () => {
    // The heartbeat /api/ready reads: this instance's worker is alive (a write every few seconds).
    once('heartbeat', async () => beat(db(), await instanceKey()));
    // Webhook sends wait on other people's servers (up to the attempt timeout), so they run
    // beside the job pass rather than in it: a slow receiver never delays timed transitions.
    once('webhooks', () => deliverDueWebhooks({ stopping: () => stopping }).then(() => {}));
    once('housekeeping', keepHouse);
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
