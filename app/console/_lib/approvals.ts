import 'server-only';
import { cache } from 'react';
import { listApprovals, listExpiredWhileHeld } from '@/lib/agents/approvals';
import { namesOf } from '@/lib/staff/names';
import * as agents from '@/lib/agents/service';
import type { AgentAction } from '@/lib/agents/presenter';
import { formatAmount, formatRate } from '@/components/format';
import { db } from '@/lib/core/db';
import { now } from '@/lib/core/clock';
import { approvalContext, type ApprovalContext, type Party } from '@/lib/staff/approval-context';
import type { HoldReason } from '@/lib/agents/policy';
import type { StaffActor } from '@/lib/staff/roles';
import { countLabel } from './counts';
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
  customer: { name: string; kind: string; verification: string };
  amount: string;
  detail: string;
  /** Both sides of the money; equal when nothing is converted. */
  sending: string | null;
  receiving: string | null;
  /** "1 USD = 17.06 MXN", or null when no currency changes. */
  rate: string | null;
  source: Party | null;
  payee: Party | null;
  /** Why the policy holds it, one sentence per rule. */
  held: string[];
  /** When the quote behind it expires (approving after that fails the action); null: no quote. */
  expiresAt: string | null;
  recent: { id: string; type: string; status: string; createdAt: string; amount: string }[];
  transactionId: string | null;
  mode: string;
  limits: { label: string; used: string; limit: string }[];
}
/** An action that left the queue because its quote expired before anyone decided. */
export interface ExpiredRow {
  id: string;
  amount: string;
  /** "Quote bot (agent of Ada Lovelace)". */
  agent: string;
  failedAt: string;
  transactionId: string | null;
}
export interface ApprovalPage {
  /** The platform's clock when read (the sandbox clock may run ahead): quotes' time left counts from it. */
  now: string;
  rows: ApprovalRow[];
  /** Failed in the last 24 hours of the platform's clock because their quote expired while held. */
  expired: ExpiredRow[];
  nextCursor: string | null;
  /** Absent past the list's count cap. */
  totalCount?: number;
  /** The count as the page shows it ("10,000+" past the cap). */
  totalLabel: string;
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

function heldText(h: HoldReason): string {
  if (h.rule === 'APPROVAL_REQUIRED')
    return h.scope === 'ACCOUNT_RULE'
      ? "The account's rule in the agent's policy requires approval for every action"
      : "The agent's policy requires approval for every action (default execution mode APPROVAL_REQUIRED)";
  return `Above the approval threshold of ${formatAmount(h.threshold, h.currency)}: ${formatAmount(h.amount, h.currency)} is ${formatAmount(h.over, h.currency)} over`;
}

function contextFields(c: ApprovalContext) {
  const money = (m: { amount: bigint; currency: string } | undefined) =>
    m ? formatAmount(m.amount, m.currency) : null;
  const converted = c.sending && c.receiving && c.sending.currency !== c.receiving.currency;
  return {
    customer: { name: c.customer.name, kind: c.customer.kind, verification: c.customer.verification },
    sending: money(c.sending),
    receiving: money(c.receiving),
    rate: converted ? formatRate(c.exchangeRate, c.sending!.currency, c.receiving!.currency) : null,
    source: c.source ?? null,
    payee: c.payee ?? null,
    held: c.held.length
      ? c.held.map(heldText)
      : ["The agent's current policy would no longer hold it (the policy changed after it was held)"],
    expiresAt: c.expiresAt ? c.expiresAt.toISOString() : null,
    recent: c.recent.map((r) => ({
      id: r.id,
      type: r.type,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      amount: r.amount !== undefined && r.currency ? formatAmount(r.amount, r.currency) : '—',
    })),
  };
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
    const at = now();
    const [page, expired] = await Promise.all([
      listApprovals(actor, { limit: 20, sortOrder: 'asc', cursor }),
      listExpiredWhileHeld(actor),
    ]);
    const names = await namesOf(
      actor.platformId,
      expired.map((e) => e.action.agentId),
      db(),
    );
    const seen = new Map<string, Promise<Agent>>();
    const agentOf = (id: string) => {
      if (!seen.has(id)) seen.set(id, agents.get(actor.platformId, id));
      return seen.get(id)!;
    };
    const rows = await Promise.all(
      page.data.map(async (a): Promise<ApprovalRow> => {
        const agent = await agentOf(a.agentId);
        const context = await approvalContext(actor.platformId, a, agent, at, db());
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
          ...contextFields(context),
        };
      }),
    );
    return {
      now: at.toISOString(),
      rows,
      expired: expired.map(({ action: a, failedAt }) => ({
        id: a.id,
        amount: whatOf(a).amount,
        agent: names.get(a.agentId)?.name ?? a.agentId,
        failedAt: failedAt.toISOString(),
        transactionId: a.transaction?.id ?? null,
      })),
      nextCursor: page.nextCursor ?? null,
      totalCount: page.totalCount,
      totalLabel: countLabel(page.totalCount),
    };
  });
}

/**
 * How many actions wait (the navigation's badge, the overview's figure): one row read, the total
 * counted (absent past the count cap), once per request (React's cache, keyed by the request's one staff actor).
 */
export const pendingCount = cache(async (actor: StaffActor): Promise<number | undefined> =>
  read(actor, async () => (await listApprovals(actor, { limit: 1, sortOrder: 'asc' })).totalCount),
);
