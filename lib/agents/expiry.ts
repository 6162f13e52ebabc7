import { runAs } from '../core/context';
import { clockOf, now } from '../core/clock';
import { transaction } from '../core/db';
import type { Sweep } from '../jobs/queue';
import { release } from './limits';
import * as repo from './repository';

// An action holding a quote that expired before the platform decided can no longer run
// (approving it would fail with QUOTE_EXPIRED): it leaves the approval queue as FAILED and its
// counting against the agent's limits is given back. The quote and its transaction expire on
// their own ('quote.expire', lib/payments/settlement.ts); this sweep runs after that one.
/** How the failure reads (the console finds these actions by it to show what died waiting). */
export const EXPIRED_WHILE_HELD = 'expired before the action was approved';

export const failExpiredActions: Sweep = async ({ platformId }) => {
  let done = 0;
  for (;;) {
    const failed = await transaction(async (tx) => {
      const due = await repo.lockExpiredPending(50, platformId, tx);
      for (const action of due) {
        await release(action.agentId, action.usage, tx);
        await runAs({ kind: 'system', platformId: action.platformId, ...clockOf(action) }, async () => {
          const reason = `Quote ${action.quoteId} ${EXPIRED_WHILE_HELD}`;
          await repo.move(action.id, 'fail', { failureReason: reason, updatedAt: now() }, tx);
        });
      }
      return due.length;
    });
    done += failed;
    if (failed < 50) return done;
  }
};
