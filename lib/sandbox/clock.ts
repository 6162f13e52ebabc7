import { nowFor } from '../core/clock';
import * as platforms from '../platform/repository';
import { runDueJobs } from '../jobs/queue';
import { deliverDueWebhooks } from '../webhooks/service';

// POST /sandbox/clock/advance (our extension): fast-forwards this platform's clock, then runs
// everything that became due (timed transitions, expiries, webhook retries) before answering,
// so a client sees the effects at once instead of sleeping.
export async function advanceClock(platformId: string, currentOffsetMs: bigint, seconds: number) {
  const platform = await platforms.findById(platformId);
  const offset = (platform?.clockOffsetMs ?? currentOffsetMs) + BigInt(seconds) * 1000n;
  await platforms.setClockOffset(platformId, offset);
  let jobsRun = 0;
  let webhooksDelivered = 0;
  // Jobs may schedule follow-ups that are already due (e.g. a return after a completion).
  for (let round = 0; round < 10; round++) {
    const ran = await runDueJobs({ platformId });
    const sent = await deliverDueWebhooks({ platformId });
    jobsRun += ran;
    webhooksDelivered += sent.delivered; // acknowledged by the receiver, not merely attempted
    if (!ran && !sent.attempted) break;
  }
  return { now: nowFor(offset).toISOString(), offsetSeconds: Number(offset / 1000n), jobsRun, webhooksDelivered };
}
