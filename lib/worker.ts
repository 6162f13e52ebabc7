import { errorText, log } from './core/log';
import { deliverDueWebhooks } from './webhooks/service';
import { maintainDatabase, ownMaintenanceNeeded } from './jobs/maintenance';
import { purgeStale } from './jobs/retention';
import { runDueJobs } from './jobs/queue';
import { foldRunningTotals } from './core/running-totals';
import { db } from './core/db';
import { instanceKey } from './core/instance';
import { beat } from './ops/heartbeat';

// The in-process worker started with the server: polls the job table and does housekeeping.
// Several server processes may run it at once (jobs are claimed with SKIP LOCKED).
let timer: NodeJS.Timeout | undefined;
let running = false;
let lastHousekeeping = 0;
let lastMaintenance = 0;
let lastFold = 0;
let delivering = false;

// Webhook sends wait on other people's servers (up to the attempt timeout), so they run beside
// the job pass rather than in it: a slow receiver never delays timed transitions.
async function deliverWebhooks() {
  if (delivering) return;
  delivering = true;
  try {
    await deliverDueWebhooks();
  } catch (err) {
    log().error({ err: errorText(err) }, 'webhook delivery pass failed');
  } finally {
    delivering = false;
  }
}

// Housekeeping has its own pass too: under sustained load the job pass may not return for a
// long time, and the embedded database's statistics must keep up exactly then.
let housekeeping = false;
async function keepHouse() {
  if (housekeeping) return;
  housekeeping = true;
  try {
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
  } catch (err) {
    log().error({ err: errorText(err) }, 'housekeeping failed');
  } finally {
    housekeeping = false;
  }
}

// The heartbeat /api/ready reads: this process's worker is alive (a write every few seconds).
async function heartbeat() {
  try {
    await beat(db(), await instanceKey());
  } catch (err) {
    log().error({ err: errorText(err) }, 'worker heartbeat failed');
  }
}

async function tick() {
  void heartbeat();
  void deliverWebhooks();
  void keepHouse();
  if (running) return;
  running = true;
  try {
    await runDueJobs();
  } catch (err) {
    log().error({ err: errorText(err) }, 'worker tick failed');
  } finally {
    running = false;
  }
}

export function startWorker(intervalMs = Number(process.env.CORRIDOR_WORKER_INTERVAL_MS || 1000)): void {
  if (timer) return;
  timer = setInterval(tick, intervalMs);
  timer.unref();
}

export function stopWorker(): void {
  if (timer) clearInterval(timer);
  timer = undefined;
}
