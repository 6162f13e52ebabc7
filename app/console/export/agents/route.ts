import * as agents from '@/lib/agents/service';
import { amountCells } from '@/lib/core/csv';
import { exportResponse, withNames } from '../../_lib/export';
import { agentFilters, agentQuery, searchOf } from '../../_lib/list-filters';

// GET /console/export/agents – the agents the list's filters select, as CSV, newest first like
// the list: each with its customer by name, its state, its spending limits and today's and this
// month's spending, amounts in the policy currency's major units.
const yesNo = (v: boolean) => (v ? 'yes' : 'no');

export async function GET(req: Request) {
  const filters = agentFilters(searchOf(new URL(req.url)));
  return exportResponse({
    list: 'agents',
    filters,
    header: [
      'Agent',
      'Customer',
      'Customer id',
      'Connected',
      'Paused',
      'Execution mode',
      'Limit per transaction',
      'Daily limit',
      'Monthly limit',
      'Spent today',
      'Spent this month',
      'Limit currency',
      'Agent id',
      'Created',
    ],
    page: async (actor, limit, cursor) =>
      withNames(
        actor.platformId,
        await agents.list(actor.platformId, { ...agentQuery(filters), limit, cursor }),
        (rows) => rows.map((a) => a.customerId),
      ),
    row: ({ r: a, names }) => {
      const l = a.policy.spendingLimits;
      // One currency column for the five amounts: every limit and the usage are in the policy's.
      const major = (v: bigint | null | undefined) => amountCells(v, l.currency)[0];
      return [
        a.name,
        names.get(a.customerId)?.name ?? '',
        a.customerId,
        yesNo(a.isConnected),
        yesNo(a.isPaused),
        a.policy.defaultExecutionMode,
        major(l.perTransactionLimit),
        major(l.dailyLimit),
        major(l.monthlyLimit),
        major(a.usage.dailySpend),
        major(a.usage.monthlySpend),
        l.currency,
        a.id,
        a.createdAt,
      ];
    },
  });
}
