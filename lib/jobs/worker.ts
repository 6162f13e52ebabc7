import { purgeExpired } from '../http/idempotency-repository';
import { runDueJobs } from './queue';

// The in-process worker started with the server: polls the job table and does housekeeping.
// Several server processes may run it at once (jobs are claimed with SKIP LOCKED).
let timer: NodeJS.Timeout | undefined;
let running = false;
let lastHousekeeping = 0;

async function tick() {
  if (running) return;
  running = true;
  try {
    await runDueJobs();
    if (Date.now() - lastHousekeeping > 10 * 60_000) {
      lastHousekeeping = Date.now();
      await purgeExpired(new Date());
    }
  } catch (err) {
    console.error('[corridor] worker tick failed:', err instanceof Error ? err.message : err);
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
