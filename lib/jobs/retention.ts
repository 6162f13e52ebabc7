import { purgeExpired as purgeIdempotency } from '../core/idempotency';
import { purgeExpired as purgeSignedRequests } from '../wallet-auth/signed-request-repository';
import { purgeExpiredOtp } from '../wallet-auth/repository';
import { purgeExpired as purgeCodes } from '../codes/service';
import { purgeStaleFailures } from '../tokens/throttle';
import { purgeDone } from './repository';
import { currentCorridor } from '../core/context';
import { pacedPass, type Pace, type PassHooks, type PassReport } from '../core/housekeeping';

// What the service keeps only while it can matter. One-time codes and signed-retry challenges
// are useless once expired (an expired or spent requestId is refused whether or not its row is
// still there); they go a day after expiry. Finished jobs go after a week; failed jobs, events
// and webhook attempts are history and stay. Expiry times are on each platform's sandbox clock,
// which only runs ahead of the wall clock, so comparing with wall time never removes a row that
// is still valid.
export const DAY_MS = 24 * 3600_000;

/**
 * Pruning a domain owns (its rows, its rules), plugged in by lib/wiring.ts; run with the rest.
 * One call removes at most `limit` rows and answers how many: the worker runs it batch after
 * batch, paced (lib/core/housekeeping.ts).
 */
export type Pruner = (wallNow: Date, limit: number) => Promise<number>;

declare module '../core/context' {
  interface CorridorParts {
    /** The instance's pruners, by name. */
    pruners: Map<string, Pruner>;
  }
}

export function registerPruner(name: string, prune: Pruner): void {
  currentCorridor().pruners.set(name, prune);
}

/** Every retention task: the domains' pruners, then the service's own, by the name metrics use. */
export function retentionTasks(wallNow: Date): [string, (limit: number) => Promise<number>][] {
  const dayAgo = new Date(wallNow.getTime() - DAY_MS);
  return [
    ...[...currentCorridor().pruners].map(([name, prune]): [string, (limit: number) => Promise<number>] => [
      name,
      (limit) => prune(wallNow, limit),
    ]),
    ['idempotencyKeys', (limit) => purgeIdempotency(wallNow, limit)],
    ['signedRequests', (limit) => purgeSignedRequests(dayAgo, limit)],
    ['otpChallenges', (limit) => purgeExpiredOtp(dayAgo, limit)],
    ['oneTimeCodes', (limit) => purgeCodes(dayAgo, limit)],
    ['jobs', (limit) => purgeDone(new Date(wallNow.getTime() - 7 * DAY_MS), limit)],
    ['authFailures', (limit) => purgeStaleFailures(wallNow, limit)],
  ];
}

/**
 * One retention pass: each task in paced batches within its own time budget (`pace`). A task
 * whose budget ran out (`complete: false`) goes on in the next pass, where it left off (what is
 * left is still there to be found).
 */
export async function purgeStale(wallNow: Date, pace?: Pace, hooks?: PassHooks): Promise<PassReport[]> {
  const reports: PassReport[] = [];
  for (const [name, step] of retentionTasks(wallNow))
    reports.push(await pacedPass(`retention.${name}`, step, pace, hooks));
  return reports;
}
