import { purgeExpired as purgeIdempotency } from '../core/idempotency';
import { purgeExpired as purgeSignedRequests } from '../wallet-auth/signed-request-repository';
import { purgeExpiredOtp } from '../wallet-auth/repository';
import { purgeExpired as purgeCodes } from '../codes/service';
import { purgeStaleFailures } from '../tokens/throttle';
import { purgeDone } from './repository';
import { currentCorridor } from '../core/context';

// What the service keeps only while it can matter. One-time codes and signed-retry challenges
// are useless once expired (an expired or spent requestId is refused whether or not its row is
// still there); they go a day after expiry. Finished jobs go after a week; failed jobs, events
// and webhook attempts are history and stay. Expiry times are on each platform's sandbox clock,
// which only runs ahead of the wall clock, so comparing with wall time never removes a row that
// is still valid.
export const DAY_MS = 24 * 3600_000;

/** Pruning a domain owns (its rows, its rules), plugged in by lib/wiring.ts; run with the rest. */
export type Pruner = (wallNow: Date) => Promise<number>;

declare module '../core/context' {
  interface CorridorParts {
    /** The instance's pruners, by name. */
    pruners: Map<string, Pruner>;
  }
}

export function registerPruner(name: string, prune: Pruner): void {
  currentCorridor().pruners.set(name, prune);
}

export async function purgeStale(wallNow: Date): Promise<Record<string, number>> {
  const dayAgo = new Date(wallNow.getTime() - DAY_MS);
  const owned: Record<string, number> = {};
  for (const [name, prune] of currentCorridor().pruners) owned[name] = await prune(wallNow);
  return {
    ...owned,
    idempotencyKeys: await purgeIdempotency(wallNow),
    signedRequests: await purgeSignedRequests(dayAgo),
    otpChallenges: await purgeExpiredOtp(dayAgo),
    oneTimeCodes: await purgeCodes(dayAgo),
    jobs: await purgeDone(new Date(wallNow.getTime() - 7 * DAY_MS)),
    authFailures: await purgeStaleFailures(wallNow),
  };
}
