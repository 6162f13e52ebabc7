import Link from 'next/link';
import type { Agent } from '@/lib/agents/presenter';
import type { Named } from '@/lib/staff/names';
import { CopyId } from './copy-id';
import { NamedRef } from './named';
import { formatAmount } from '../format';
import { LocalTime } from '../time';
import { Badge, Cell, Empty, Facts, Table } from '../ui';

// The agents table of the console's agents page and customer page, and an agent's policy and
// usage on its own page (server components). Amounts are in the policy's currency.
const link = 'text-blue-800 underline';
const yesNo = (v: boolean) => (v ? 'yes' : 'no');

export function AgentsTable({
  rows,
  caption,
  names = new Map(),
}: {
  rows: Agent[];
  caption: string;
  /** The customers by name (lib/staff/names); without it their ids show. */
  names?: Map<string, Named>;
}) {
  return (
    <Table caption={caption} head={['Agent', 'Customer', 'Connected', 'Paused', 'Execution mode', 'Created']}>
      {rows.map((a) => (
        <tr key={a.id}>
          <Cell>
            <Link className={link} href={`/console/agents/${encodeURIComponent(a.id)}`}>
              {a.name}
            </Link>
            <CopyId id={a.id} />
          </Cell>
          <Cell>
            <NamedRef id={a.customerId} names={names} />
          </Cell>
          <Cell>{yesNo(a.isConnected)}</Cell>
          <Cell>{a.isPaused ? <Badge status="PAUSED" /> : 'no'}</Cell>
          <Cell>{a.policy.defaultExecutionMode}</Cell>
          <Cell>
            <LocalTime value={a.createdAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

const money = (v: bigint | null | undefined, currency: string) =>
  v === null || v === undefined ? 'No limit' : formatAmount(v, currency);

/** The ids of the accounts a policy names, for the page to resolve to names (lib/staff/names). */
export function policyAccountIds(policy: Agent['policy']): string[] {
  const r = policy.accountRestrictions;
  return [...(r?.allowedAccountIds ?? []), ...(r?.accountRules ?? []).map((rule) => rule.accountId)];
}

/** Which accounts the agent may use, and the rules some of them carry. */
function Restrictions({ policy, names }: { policy: Agent['policy']; names: Map<string, Named> }) {
  const r = policy.accountRestrictions;
  const allowed = r?.allowedAccountIds;
  const rules = r?.accountRules ?? [];
  return (
    <div className="space-y-2">
      {allowed && allowed.length ? (
        <>
          <p>Only these accounts</p>
          <ul className="space-y-1">
            {allowed.map((id) => (
              <li key={id}>
                <NamedRef id={id} names={names} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>Any account of the customer</p>
      )}
      {rules.length ? (
        <Table caption="Account rules" head={['Account', 'Execution mode', 'Limit per transaction']}>
          {rules.map((rule) => (
            <tr key={rule.accountId}>
              <Cell>
                <NamedRef id={rule.accountId} names={names} />
              </Cell>
              <Cell>{rule.executionMode ?? policy.defaultExecutionMode}</Cell>
              <Cell>{money(rule.perTransactionLimit, policy.spendingLimits.currency)}</Cell>
            </tr>
          ))}
        </Table>
      ) : null}
    </div>
  );
}

export function PolicyFacts({
  policy,
  names = new Map(),
}: {
  policy: Agent['policy'];
  /** The policy's accounts by name (policyAccountIds, resolved); without it their ids show. */
  names?: Map<string, Named>;
}) {
  const l = policy.spendingLimits;
  const t = policy.approvalThresholds;
  return (
    <Facts
      items={[
        ['Permissions', policy.permissions.length ? policy.permissions.join(', ') : 'None'],
        ['Default execution mode', policy.defaultExecutionMode],
        ['Limit currency', l.currency],
        ['Limit per transaction', money(l.perTransactionLimit, l.currency)],
        ['Daily limit', money(l.dailyLimit, l.currency)],
        ['Transactions per day', l.dailyTransactionLimit === undefined ? 'No limit' : String(l.dailyTransactionLimit)],
        ['Monthly limit', money(l.monthlyLimit, l.currency)],
        ['Accounts', <Restrictions key="r" policy={policy} names={names} />],
        [
          'Approval needed above',
          t?.amount !== undefined && t.amount !== null && t.currency
            ? formatAmount(t.amount, t.currency)
            : 'No threshold',
        ],
      ]}
    />
  );
}

/** Today's and this month's spending against the policy's limits. */
export function UsageTable({ agent }: { agent: Agent }) {
  const l = agent.policy.spendingLimits;
  const u = agent.usage;
  const rows: [string, string, string][] = [
    ['Spent today', formatAmount(u.dailySpend, l.currency), money(l.dailyLimit, l.currency)],
    [
      'Transactions today',
      String(u.dailyTransactionCount),
      l.dailyTransactionLimit === undefined ? 'No limit' : String(l.dailyTransactionLimit),
    ],
    ['Spent this month', formatAmount(u.monthlySpend, l.currency), money(l.monthlyLimit, l.currency)],
  ];
  return (
    <>
      <Table caption="Usage against the agent's limits" head={['Usage', 'Used', 'Limit']}>
        {rows.map(([label, used, limit]) => (
          <tr key={label}>
            <Cell>{label}</Cell>
            <Cell>{used}</Cell>
            <Cell>{limit}</Cell>
          </tr>
        ))}
      </Table>
      <p className="mt-2 text-sm text-slate-700">
        The daily usage resets on {String(u.dailyResetDate)}, the monthly usage in {u.monthlyResetMonth} (UTC).
      </p>
    </>
  );
}

/** A customer's agents on the customer's page, with a link to all of them when there are more. */
export function CustomerAgents({
  page,
  customerId,
}: {
  page: { data: Agent[]; hasMore: boolean };
  customerId: string;
}) {
  if (!page.data.length) return <Empty>No agents act for this customer.</Empty>;
  return (
    <>
      <AgentsTable rows={page.data} caption="Agents of this customer" />
      {page.hasMore ? (
        <p className="mt-2 text-sm">
          <Link className={link} href={`/console/agents?customerId=${encodeURIComponent(customerId)}`}>
            All agents of this customer
          </Link>
        </p>
      ) : null}
    </>
  );
}
