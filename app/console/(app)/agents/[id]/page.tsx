import Link from 'next/link';
import { DomainError } from '@/lib/core/errors';
import * as agents from '@/lib/agents/service';
import { listApprovals } from '@/lib/agents/approvals';
import type { Agent, AgentAction } from '@/lib/agents/presenter';
import * as customers from '@/lib/customers/service';
import { historyOf } from '@/lib/staff/audit';
import { namesOf } from '@/lib/staff/names';
import { db } from '@/lib/core/db';
import { hasRole } from '@/lib/staff/roles';
import { formatAmount, shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Cell, Empty, Facts, PageHeader, Section, Table } from '@/components/ui';
import { AuditList } from '@/components/console/tables';
import { ActionButton } from '@/components/console/action-button';
import { PolicyFacts, policyAccountIds, UsageTable } from '@/components/console/agents';
import { DeviceCodeButton } from '@/components/console/agent-forms';
import { PolicyForm, type PolicyValues } from '@/components/console/policy-form';
import * as accounts from '@/lib/accounts/service';
import { CURRENCY_CODES } from '@/lib/core/currencies';
import { setAgentPausedAction } from '../../../_lib/actions';
import { requireStaff } from '../../../_lib/session';
import { readOr404 } from '../../../_lib/read';

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `${decodeURIComponent((await params).id)} · Corridor console` };
}

const link = 'text-blue-800 underline';

function AgentFacts({ a, customerName }: { a: Agent; customerName: string | null }) {
  return (
    <Facts
      items={[
        [
          'Customer',
          <Link key="c" className={link} href={`/console/customers/${encodeURIComponent(a.customerId)}`}>
            {customerName ?? shortId(a.customerId)}
          </Link>,
        ],
        ['Connected', a.isConnected ? 'yes' : 'no: its device code has not been redeemed'],
        ['Paused', a.isPaused ? <Badge key="p" status="PAUSED" /> : 'no'],
        ['Created', <LocalTime key="c" value={a.createdAt} />],
        ['Updated', <LocalTime key="u" value={a.updatedAt} />],
      ]}
    />
  );
}

function PendingActions({ rows, more }: { rows: AgentAction[]; more: boolean }) {
  if (!rows.length) return <Empty>No action of this agent waits for approval.</Empty>;
  return (
    <>
      <Table caption="Actions waiting for approval" head={['Action', 'Type', 'Transaction', 'Submitted']}>
        {rows.map((r) => (
          <tr key={r.id}>
            <Cell mono>{shortId(r.id)}</Cell>
            <Cell>{r.type}</Cell>
            <Cell mono>
              {r.transaction ? (
                <Link className={link} href={`/console/transactions/${encodeURIComponent(r.transaction.id)}`}>
                  {shortId(r.transaction.id)}
                </Link>
              ) : (
                '—'
              )}
            </Cell>
            <Cell>
              <LocalTime value={r.createdAt} />
            </Cell>
          </tr>
        ))}
      </Table>
      <p className="mt-2 text-sm">
        {more ? 'More are waiting. ' : ''}
        <Link className={link} href="/console/approvals">
          Decide in the approvals queue
        </Link>
      </p>
    </>
  );
}

function PauseButton({ a }: { a: Agent }) {
  if (a.isPaused)
    return (
      <ActionButton key="resume" action={setAgentPausedAction.bind(null, a.id, false)} label="Resume" done="Resumed" />
    );
  return (
    <ActionButton
      key="pause"
      action={setAgentPausedAction.bind(null, a.id, true)}
      label="Pause"
      tone="danger"
      done="Paused: its requests are refused until it is resumed"
    />
  );
}

function DeviceCode({ a }: { a: Agent }) {
  if (a.isConnected)
    return (
      <p className="text-sm">
        The agent is connected. A connected agent keeps its connection: to connect other software, delete it through the
        API and create a new agent.
      </p>
    );
  return (
    <>
      <p className="mb-3 text-sm">
        The agent software redeems a device code once for its access token. A new code replaces the earlier ones, which
        stop working.
      </p>
      <DeviceCodeButton agentId={a.id} />
    </>
  );
}

const digits = (v: bigint | null | undefined) => (v === null || v === undefined ? '' : v.toString());

/** The policy in force as the form's values (amounts in minor units, as digits). */
function policyValues(a: Agent): PolicyValues {
  const l = a.policy.spendingLimits;
  const t = a.policy.approvalThresholds;
  return {
    defaultExecutionMode: a.policy.defaultExecutionMode,
    currency: l.currency,
    perTransactionLimit: digits(l.perTransactionLimit),
    dailyLimit: digits(l.dailyLimit),
    monthlyLimit: digits(l.monthlyLimit),
    dailyTransactionLimit: l.dailyTransactionLimit === undefined ? '' : String(l.dailyTransactionLimit),
    approvalThreshold: t?.amount !== null && t?.amount !== undefined && t.currency ? digits(t.amount) : '',
    approvalThresholdCurrency: (t?.amount !== null && t?.amount !== undefined && t.currency) || l.currency,
    permissions: a.policy.permissions,
    allowedAccountIds: a.policy.accountRestrictions?.allowedAccountIds ?? null,
  };
}

export default async function AgentPage({ params }: { params: Params }) {
  const actor = await requireStaff();
  const id = decodeURIComponent((await params).id);
  const p = actor.platformId;
  const d = await readOr404(actor, async () => {
    const agent = await agents.get(p, id);
    const [customer, pending, audit] = await Promise.all([
      // A deleted customer's agent still shows, without the name; any other failure is an error.
      customers.get(p, agent.customerId).catch((err) => {
        if (err instanceof DomainError && err.code === 'USER_NOT_FOUND') return null;
        throw err;
      }),
      listApprovals(actor, { agentId: id, limit: 10, sortOrder: 'asc' }),
      historyOf(p, [id]),
    ]);
    const [owned, names] = await Promise.all([
      accounts.list(p, { owner: 'customers', customerId: agent.customerId }, 100),
      namesOf(p, policyAccountIds(agent.policy), db()),
    ]);
    return { agent, customer, pending, audit, owned, names };
  });
  const a = d.agent;
  const c = d.customer as (Record<string, unknown> & { platformCustomerId?: string }) | null;
  const customerName = c
    ? String(c.fullName ?? (c.businessInfo as { legalName?: string })?.legalName ?? c.platformCustomerId)
    : null;
  const operator = hasRole(actor.role, 'operator');
  return (
    <>
      <PageHeader title={a.name} description={<span className="font-mono break-all">{a.id}</span>} />
      <Section title="Agent" actions={operator ? <PauseButton a={a} /> : null}>
        <AgentFacts a={a} customerName={customerName} />
      </Section>
      <Section title="Policy">
        <PolicyFacts policy={a.policy} names={d.names} />
      </Section>
      <Section title="Usage against limits">
        <UsageTable agent={a} />
      </Section>
      {hasRole(actor.role, 'admin') ? (
        <Section title="Change the policy">
          <PolicyForm
            agentId={a.id}
            current={policyValues(a)}
            usage={{
              dailySpend: a.usage.dailySpend.toString(),
              monthlySpend: a.usage.monthlySpend.toString(),
              dailyTransactionCount: a.usage.dailyTransactionCount,
            }}
            accounts={d.owned.data.map((acc) => ({
              id: acc.id,
              label: `${acc.balance.currency.code} ${acc.type.toLowerCase().replace(/_/g, ' ')} · ${formatAmount(acc.balance.amount, acc.balance.currency.code)} available · ${shortId(acc.id)}`,
            }))}
            currencies={CURRENCY_CODES}
          />
        </Section>
      ) : null}
      {operator ? (
        <Section title="Device code">
          <DeviceCode a={a} />
        </Section>
      ) : null}
      <Section title="Waiting for approval">
        <PendingActions rows={d.pending.data} more={d.pending.hasMore} />
      </Section>
      <Section title="Staff actions">
        <AuditList entries={d.audit} />
      </Section>
    </>
  );
}
