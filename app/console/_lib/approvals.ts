import 'server-only';
import { cache } from 'react';
import { listApprovals } from '@/lib/agents/approvals';
import * as agents from '@/lib/agents/service';
import type { AgentAction } from '@/lib/agents/presenter';
import { formatAmount } from '@/components/format';
import type { StaffActor } from '@/lib/staff/roles';
import { read } from './read';

// The approvals queue as the console's client component shows it: plain strings (amounts already
// formatted in their currency's decimals), so the same shape serves the server-rendered first
// page and the JSON route react-query refetches after a decision.
export interface ApprovalRow {
  id: string;
  type: string;
  createdAt: string;
  agent: { id: string; name: string; isPaused: boolean };
  customerId: string;
  platformCustomerId: string;
  amount: string;
  detail: string;
  transactionId: string | null;
  mode: string;
  limits: { label: string; used: string; limit: string }[];
}
export interface ApprovalPage {
  rows: ApprovalRow[];
  nextCursor: string | null;
  /** Absent past the list's count cap. */
  totalCount?: number;
}

type Agent = Awaited<ReturnType<typeof agents.get>>;

function limitsOf(agent: Agent): ApprovalRow['limits'] {
  const { spendingLimits: l } = agent.policy;
  const u = agent.usage;
  const money = (v: bigint | null | undefined) =>
    v === null || v === undefined ? 'no limit' : formatAmount(v, l.currency);
  return [
    { label: 'Per transaction', used: '—', limit: money(l.perTransactionLimit) },
    { label: 'Today', used: formatAmount(u.dailySpend, l.currency), limit: money(l.dailyLimit) },
    {
      label: 'Transactions today',
      used: String(u.dailyTransactionCount),
      limit: l.dailyTransactionLimit === undefined ? 'no limit' : String(l.dailyTransactionLimit),
    },
    { label: 'This month', used: formatAmount(u.monthlySpend, l.currency), limit: money(l.monthlyLimit) },
  ];
}

function whatOf(a: AgentAction): { amount: string; detail: string } {
  if (a.quote) {
    const q = a.quote;
    return {
      amount: formatAmount(q.totalSendingAmount, q.sendingCurrency.code),
      detail: `Quote ${q.id}: receives ${formatAmount(q.totalReceivingAmount, q.receivingCurrency.code)}`,
    };
  }
  if (a.transferDetails) {
    const t = a.transferDetails;
    return {
      amount: formatAmount(t.amount, t.currency),
      detail: `From ${t.sourceAccountId} to ${t.destinationAccountId}`,
    };
  }
  return { amount: '—', detail: a.type };
}

export async function approvalQueue(actor: StaffActor, cursor: string | undefined): Promise<ApprovalPage> {
  return read(actor, async () => {
    const page = await listApprovals(actor, { limit: 20, sortOrder: 'asc', cursor });
    const seen = new Map<string, Promise<Agent>>();
    const agentOf = (id: string) => {
      if (!seen.has(id)) seen.set(id, agents.get(actor.platformId, id));
      return seen.get(id)!;
    };
    const rows = await Promise.all(
      page.data.map(async (a): Promise<ApprovalRow> => {
        const agent = await agentOf(a.agentId);
        return {
          id: a.id,
          type: a.type,
          createdAt: new Date(a.createdAt).toISOString(),
          agent: { id: agent.id, name: agent.name, isPaused: agent.isPaused },
          customerId: a.customerId,
          platformCustomerId: a.platformCustomerId ?? '',
          ...whatOf(a),
          transactionId: a.transaction?.id ?? null,
          mode: agent.policy.defaultExecutionMode,
          limits: limitsOf(agent),
        };
      }),
    );
    return { rows, nextCursor: page.nextCursor ?? null, totalCount: page.totalCount };
  });
}

/**
 * How many actions wait (the navigation's badge, the overview's figure): one row read, the total
 * counted (absent past the count cap), once per request (React's cache, keyed by the request's one staff actor).
 */
export const pendingCount = cache(async (actor: StaffActor): Promise<number | undefined> =>
  read(actor, async () => (await listApprovals(actor, { limit: 1, sortOrder: 'asc' })).totalCount),
);
