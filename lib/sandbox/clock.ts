import { nowFor, type PlatformClock } from '../core/clock';
import { currentClaim } from '../core/context';
import { notFound } from '../core/errors';
import { effect } from '../core/idempotency';
import * as platforms from '../platform/repository';
import { dueUnfinished, runDueJobs } from '../jobs/queue';
import { deliverDueWebhooks } from '../webhooks/service';

/** How long an advance waits for the work it made due before answering with what is left. */
export const SETTLE_LIMIT_MS = 30_000;
const POLL_MS = 50;

// POST /sandbox/clock/advance (our extension): fast-forwards this platform's clock, then runs
// everything that became due (timed transitions, expiries, webhook retries) before answering,
// so a client sees the effects at once instead of sleeping.
export async function advanceClock(platformId: string, seconds: number) {
  const clock = await platforms.advanceClock(platformId, BigInt(seconds) * 1000n);
  if (!clock) throw notFound('REFERENCE_NOT_FOUND', `Platform ${platformId}`);
  const result = { ...(await settle(platformId)), ...describe(clock) };
  // Under an Idempotency-Key the answer (what ran) is known only now, after the move, so it is
  // recorded here in a transaction of its own rather than with the move: a repeat of the key gets
  // it and moves nothing. A process dying between the two leaves the key unanswered, and a retry
  // then advances again.
  return currentClaim() ? effect(async () => result) : result;
}

/**
 * Runs what is due on the platform's clock until nothing is: a job may enqueue another that is
 * already due (a stablecoin poll scheduling the next one, due at its own "now"), and due jobs
 * another process holds (the server's own worker, which may have claimed them the moment the
 * clock moved) are waited for, with whatever they enqueue in turn. It stops as soon as nothing is
 * due or running (a failed job's retry is scheduled ahead, so it does not hold the answer up), and
 * gives up after SETTLE_LIMIT_MS, saying how many jobs are still due, rather than answering as if
 * it were done.
 */
async function settle(platformId: string) {
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  let jobsRun = 0;
  let webhooksDelivered = 0;
  for (;;) {
    const ran = await runDueJobs({ platformId });
    const sent = await deliverDueWebhooks({ platformId });
    jobsRun += ran;
    webhooksDelivered += sent.delivered; // acknowledged by the receiver, not merely attempted
    const progressed = ran > 0 || sent.attempted > 0;
    const jobsPending = progressed ? -1 : await dueUnfinished(platformId);
    if (jobsPending === 0) return { jobsRun, webhooksDelivered, jobsPending };
    if (Date.now() >= deadline)
      return {
        jobsRun,
        webhooksDelivered,
        jobsPending: jobsPending < 0 ? await dueUnfinished(platformId) : jobsPending,
      };
    if (!progressed) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function describe(clock: PlatformClock) {
  return {
    now: nowFor(clock).toISOString(),
    offsetSeconds: Number(clock.clockOffsetMs / 1000n),
    frozen: clock.clockFrozenAt !== null,
  };
}

/**
 * Stops (`frozen`) or restarts a platform's sandbox clock where its time stands. Frozen, it moves
 * only when advanced, so a test can put it exactly at a delay's boundary (a payout PROCESSING at
 * 359 s and COMPLETED at 360 s) however long the test itself takes.
 */
export async function freezeClock(platformId: string, frozen = true) {
  const clock = await platforms.setClockFrozen(platformId, frozen, new Date());
  if (!clock) throw notFound('REFERENCE_NOT_FOUND', `Platform ${platformId}`);
  return describe(clock);
}
