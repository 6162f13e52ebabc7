import * as customers from '@/lib/customers/service';
import * as verifications from '@/lib/verifications/service';
import * as documents from '@/lib/documents/service';
import * as owners from '@/lib/customers/beneficial-owners/service';
import * as accounts from '@/lib/accounts/service';
import * as externalAccounts from '@/lib/external-accounts/service';
import * as transactions from '@/lib/payments/transactions/service';
import * as cards from '@/lib/cards/service';
import * as agents from '@/lib/agents/service';
import { listDeliveries } from '@/lib/webhooks/log';
import { historyOf } from '@/lib/staff/audit';
import { namesOf, type Named } from '@/lib/staff/names';
import { db } from '@/lib/core/db';
import { hasRole } from '@/lib/staff/roles';
import { formatAmount, shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Cell, Empty, Facts, PageHeader, Section, Table } from '@/components/ui';
import { AuditList, DeliveriesTable, TransactionsTable } from '@/components/console/tables';
import { ReviewDecision } from '@/components/console/review-decision';
import { CardsTable } from '@/components/console/cards';
import { CustomerAgents } from '@/components/console/agents';
import { CopyId } from '@/components/console/copy-id';
import { requireStaff } from '../../../_lib/session';
import { readOr404 } from '../../../_lib/read';
import { DocumentList } from './documents';
import { BusinessFacts, IndividualFacts, OwnersReview } from './review-facts';

type Params = Promise<{ id: string }>;
type Customer = Record<string, unknown> & Awaited<ReturnType<typeof customers.get>>;
type Verification = Awaited<ReturnType<typeof verifications.list>>['data'][number];
type InternalAccount = Awaited<ReturnType<typeof accounts.list>>['data'][number];
type ExternalAccount = Awaited<ReturnType<typeof externalAccounts.list>>['data'][number];

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `${decodeURIComponent((await params).id)} · Corridor console` };
}

function Profile({ c, status }: { c: Customer; status: string }) {
  return (
    <Facts
      items={[
        ['Type', c.customerType],
        [c.customerType === 'INDIVIDUAL' ? 'KYC status' : 'KYB status', <Badge key="s" status={status} />],
        ['Platform customer id', c.platformCustomerId],
        ['Email', (c.email as string | undefined) ?? '—'],
        ['Phone', (c.phoneNumber as string | undefined) ?? '—'],
        ['UMA address', c.umaAddress],
        ['Region', (c.region as string | undefined) ?? '—'],
        ['Created', <LocalTime key="t" value={c.createdAt} />],
        ['Deleted', c.isDeleted ? 'yes' : 'no'],
      ]}
    />
  );
}

function Verifications({ rows, canDecide, subject }: { rows: Verification[]; canDecide: boolean; subject: string }) {
  if (!rows.length) return <Empty>Not submitted for verification yet.</Empty>;
  return (
    <ul className="divide-y divide-slate-100">
      {rows.map((v) => (
        <li key={v.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
          <div className="min-w-0 text-sm">
            <Badge status={v.verificationStatus} />
            <span className="ml-2 font-mono text-xs">{shortId(v.id)}</span>
            <span className="block text-slate-700">
              updated <LocalTime value={v.updatedAt} />
            </span>
            {v.errors.length ? (
              <ul className="mt-1 list-disc pl-5" aria-label="What the verification found missing or wrong">
                {v.errors.map((e, i) => (
                  <li key={i}>
                    {e.type}: {e.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          {v.verificationStatus === 'PENDING_MANUAL_REVIEW' && canDecide ? (
            <ReviewDecision verificationId={v.id} subject={subject} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

const ACCOUNT_KINDS: Record<string, string> = {
  INTERNAL_FIAT: 'account',
  INTERNAL_CRYPTO: 'stablecoin account',
  EMBEDDED_WALLET: 'embedded wallet',
};

/** An account by what it is ("USD account", "USDC embedded wallet"), its id one click away. */
function AccountName({ name, id }: { name: string; id: string }) {
  return (
    <span className="flex flex-col items-start">
      <span className="font-medium">{name}</span>
      <CopyId id={id} />
    </span>
  );
}

function InternalAccounts({ rows }: { rows: InternalAccount[] }) {
  if (!rows.length) return <Empty>No internal accounts.</Empty>;
  return (
    <Table caption="Internal accounts" head={['Account', 'Type', 'Status', 'Available', 'Total']}>
      {rows.map((a) => (
        <tr key={a.id}>
          <Cell>
            <AccountName name={`${a.balance.currency.code} ${ACCOUNT_KINDS[a.type] ?? 'account'}`} id={a.id} />
          </Cell>
          <Cell>{a.type}</Cell>
          <Cell>
            <Badge status={a.status} />
          </Cell>
          <Cell>{formatAmount(a.balance.amount, a.balance.currency.code)}</Cell>
          <Cell>{formatAmount(a.totalBalance.amount, a.totalBalance.currency.code)}</Cell>
        </tr>
      ))}
    </Table>
  );
}

function ExternalAccounts({ rows, names }: { rows: ExternalAccount[]; names: Map<string, Named> }) {
  if (!rows.length) return <Empty>No external accounts.</Empty>;
  return (
    <Table caption="External accounts" head={['Account', 'Kind', 'Currency', 'Status']}>
      {rows.map((a) => (
        <tr key={a.id}>
          <Cell>
            <AccountName name={names.get(a.id)?.name ?? `${a.currency} bank account`} id={a.id} />
          </Cell>
          <Cell>{a.accountInfo.accountType}</Cell>
          <Cell>{a.currency}</Cell>
          <Cell>
            <Badge status={a.status} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

/** Everything the customer's page shows, read at once. */
async function load(p: string, id: string) {
  const customer = await customers.get(p, id);
  const [checks, docs, ownerPage, internal, external, txs, hooks, cardPage, agentPage, identifier] = await Promise.all([
    verifications.list(p, { customerId: id }, 20),
    documents.ofCustomerForReview(p, id),
    customer.customerType === 'BUSINESS' ? owners.list(p, id, 50) : Promise.resolve(null),
    accounts.list(p, { owner: 'customers', customerId: id }, 50),
    externalAccounts.list(p, { owner: { kind: 'customers', customerId: id } }, 50),
    transactions.list(p, { customerId: id }, 10, 'desc'),
    listDeliveries(p, { subjectId: id }, 10),
    cards.list(p, { cardholderId: id }, 20, 'desc'),
    agents.list(p, { customerId: id, limit: 20 }),
    customer.customerType === 'INDIVIDUAL' ? customers.identifierForReview(p, id) : Promise.resolve(null),
  ]);
  const audit = await historyOf(p, [id, ...checks.data.map((v) => v.id)]);
  // External accounts by holder and bank ("Grace Hopper (Banco Azteca, MX)"), as elsewhere.
  const payees = await namesOf(
    p,
    external.data.map((a) => a.id),
    db(),
  );
  return {
    customer,
    checks,
    docs,
    ownerPage,
    internal,
    external,
    txs,
    hooks,
    cardPage,
    agentPage,
    audit,
    identifier,
    payees,
  };
}

export default async function CustomerPage({ params }: { params: Params }) {
  const actor = await requireStaff();
  const id = decodeURIComponent((await params).id);
  const p = actor.platformId;
  const d = await readOr404(actor, () => load(p, id));
  const c = d.customer as Customer;
  const business = c.businessInfo as { legalName?: string } | undefined;
  const name = (c.fullName as string | undefined) ?? business?.legalName ?? '(no name)';
  const status = String(('kycStatus' in c ? c.kycStatus : c.kybStatus) ?? 'UNVERIFIED');
  return (
    <>
      <PageHeader title={name} description={<span className="font-mono break-all">{c.id}</span>} />
      <Section title="Profile">
        <Profile c={c} status={status} />
      </Section>
      <Section title={c.customerType === 'INDIVIDUAL' ? 'KYC details' : 'KYB details'}>
        {c.customerType === 'INDIVIDUAL' ? (
          <IndividualFacts c={c} identifier={d.identifier} />
        ) : (
          <BusinessFacts c={c} />
        )}
      </Section>
      <Section title="Verifications">
        <Verifications rows={d.checks.data} canDecide={hasRole(actor.role, 'operator')} subject={name} />
      </Section>
      <Section title={`Documents of ${name}`}>
        <DocumentList docs={d.docs.filter((doc) => doc.documentHolder === c.id)} holderName={name} />
      </Section>
      {d.ownerPage ? (
        <Section title="Beneficial owners">
          <OwnersReview owners={d.ownerPage.data} docs={d.docs} />
        </Section>
      ) : null}
      <Section title="Accounts">
        <InternalAccounts rows={d.internal.data} />
        <h3 className="mt-4 mb-2 font-medium">External accounts</h3>
        <ExternalAccounts rows={d.external.data} names={d.payees} />
      </Section>
      <Section title="Cards">
        {d.cardPage.data.length ? (
          <CardsTable rows={d.cardPage.data} caption="Cards of this customer" />
        ) : (
          <Empty>No cards issued to this customer.</Empty>
        )}
      </Section>
      <Section title="Agents">
        <CustomerAgents page={d.agentPage} customerId={c.id} />
      </Section>
      <Section title="Latest transactions">
        <TransactionsTable rows={d.txs.data} caption="Latest transactions of the customer" />
      </Section>
      <Section title="Webhooks about this customer">
        <DeliveriesTable rows={d.hooks.data} caption="Webhook events about the customer" />
      </Section>
      <Section title="Staff actions">
        <AuditList entries={d.audit} />
      </Section>
    </>
  );
}
