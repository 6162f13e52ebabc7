import 'server-only';
import { listApprovals } from '@/lib/agents/approvals';
import * as agents from '@/lib/agents/service';
import * as verifications from '@/lib/verifications/service';
import { countAwaitingApproval } from '@/lib/payments/transactions/volume-repository';
import { countFailed } from '@/lib/webhooks/log';
import { railCounts } from '@/lib/payments/rail-view';
import { formatAmount } from '@/components/format';
import type { StaffActor } from '@/lib/staff/roles';
import { countLabel } from './counts';
import { read } from './read';

// What the console keeps live without a reload: the approvals badge and the newest held action
// (every page, for the layout's notice) and, on the overview, its counters. Read by
// /console/api/live, which the layout's react-query polls every few seconds; the first render
// reads the same function on the server so nothing jumps when the first poll answers.
export interface LiveSnapshot {
  /** Agent actions waiting; "10,000+" past the list's count cap; null when none. */
  approvals: string | null;
  /** The action held last, so the notice can say what just arrived. */
  newest: { id: string; agent: string; amount: string; createdAt: string } | null;
  overview?: {
    approvals: string;
    payments: number;
    reviews: string;
    failedWebhooks: number;
    /** Payments waiting on the payment rail, and refunds over it that need staff (lib/payments/rail-view.ts). */
    railWaiting: number;
    refundsForStaff: number;
  };
}

function amountOf(a: Awaited<ReturnType<typeof listApprovals>>['data'][number]): string {
  if (a.quote) return formatAmount(a.quote.totalSendingAmount, a.quote.sendingCurrency.code);
  if (a.transferDetails) return formatAmount(a.transferDetails.amount, a.transferDetails.currency);
  return '';
}

export async function liveSnapshot(actor: StaffActor, withOverview: boolean): Promise<LiveSnapshot> {
  return read(actor, async () => {
    const p = actor.platformId;
    const [page, overview] = await Promise.all([
      listApprovals(actor, { limit: 1, sortOrder: 'desc' }),
      withOverview
        ? Promise.all([
            countAwaitingApproval(p),
            verifications.list(p, { status: 'PENDING_MANUAL_REVIEW' }, 1),
            countFailed(p),
            railCounts(p),
          ])
        : null,
    ]);
    const last = page.data[0];
    const total = page.totalCount;
    return {
      approvals: total === 0 || !last ? null : countLabel(total),
      newest: last
        ? {
            id: last.id,
            agent: (await agents.get(p, last.agentId)).name,
            amount: amountOf(last),
            createdAt: new Date(last.createdAt).toISOString(),
          }
        : null,
      ...(overview
        ? {
            overview: {
              approvals: countLabel(last ? total : 0),
              payments: overview[0],
              reviews: countLabel(overview[1].totalCount),
              failedWebhooks: overview[2],
              railWaiting: overview[3].waiting,
              refundsForStaff: overview[3].staff,
            },
          }
        : {}),
    };
  });
}
