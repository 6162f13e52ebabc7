import type { ReactNode } from 'react';
import * as transactions from '@/lib/payments/transactions/service';
import { postingsOf } from '@/lib/ledger/reports';
import { listDeliveries } from '@/lib/webhooks/log';
import { historyOf } from '@/lib/staff/audit';
import { formatAmount, formatRate, shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Cell, Empty, Facts, PageHeader, Section, Table } from '@/components/ui';
import { AuditList, DeliveriesTable, counterpartyOf, transactionTitle } from '@/components/console/tables';
import { db } from '@/lib/core/db';
import { namesOf, type Named } from '@/lib/staff/names';
import { CopyId } from '@/components/console/copy-id';
import { LiveStatus } from '@/components/console/live-status';
import { NamedRef } from '@/components/console/named';
import { railViewOf, type RailView } from '@/lib/payments/rail-view';
import { refundReferenceOf } from '@/lib/payments/rail-collect';
import { hasRole } from '@/lib/core/command';
import { RailRefundActions } from '@/components/console/rail-refund-actions';
import { requireStaff } from '../../../_lib/session';
import { readOr404 } from '../../../_lib/read';

type Params = Promise<{ id: string }>;
type Transaction = Awaited<ReturnType<typeof transactions.get>>;
type Posting = Awaited<ReturnType<typeof postingsOf>>[number];
type Delivery = Awaited<ReturnType<typeof listDeliveries>>['data'][number];
type Moment = { at: Date | string; what: string; detail: string };

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `${decodeURIComponent((await params).id)} · Corridor console` };
}

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** One side of the payment: its account by name (id copyable), or the UMA address it names. */
function Side({ side, names }: { side: Json; names: Map<string, Named> }) {
  const id = text(side.accountId) ?? text(side.customerId);
  if (id) return <NamedRef id={id} names={names} />;
  return (
    <span className="break-all">
      {text(side.umaAddress) ?? text(side.sourceType) ?? text(side.destinationType) ?? '—'}
    </span>
  );
}

// The state timeline: creation, each state the transaction announced (its webhook events, kept
// whether or not they were delivered), each ledger posting, settlement and receipt.
function timelineOf(t: Transaction, hooks: Delivery[], postings: Posting[]): Moment[] {
  return [
    { at: t.createdAt, what: 'Created', detail: '' },
    ...hooks.map((h) => ({ at: h.createdAt, what: h.type, detail: `webhook ${h.status.toLowerCase()}` })),
    ...postings.map((x) => ({ at: x.createdAt, what: `Ledger: ${x.kind}`, detail: x.description ?? '' })),
    ...(t.settledAt ? [{ at: t.settledAt, what: 'Settled', detail: '' }] : []),
    ...(t.receiptDeliveryConfirmedAt
      ? [{ at: t.receiptDeliveryConfirmedAt, what: 'Receipt confirmed', detail: '' }]
      : []),
  ].sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
}

function Summary({ t, platformId, names }: { t: Transaction; platformId: string; names: Map<string, Named> }) {
  const other = counterpartyOf(t).label;
  return (
    <Facts
      items={[
        [
          'Status',
          <LiveStatus
            key="s"
            id={t.id}
            initial={{ status: t.status, updatedAt: new Date(t.updatedAt).toISOString() }}
          />,
        ],
        ['Description', t.description ?? '—'],
        ['Customer', t.customerId === platformId ? 'Platform' : <NamedRef key="c" id={t.customerId} names={names} />],
        ['From', <Side key="f" side={t.source} names={names} />],
        ['To', <Side key="t" side={t.destination} names={names} />],
        ['Counterparty', other ?? '—'],
        ['Sent', t.sentAmount ? formatAmount(t.sentAmount.amount, t.sentAmount.currency.code) : '—'],
        ['Received', t.receivedAmount ? formatAmount(t.receivedAmount.amount, t.receivedAmount.currency.code) : '—'],
        [
          'Fees',
          'fees' in t && t.fees !== undefined && t.sentAmount ? formatAmount(t.fees, t.sentAmount.currency.code) : '—',
        ],
        [
          'Exchange rate',
          t.exchangeRate !== undefined && t.sentAmount && t.receivedAmount
            ? formatRate(t.exchangeRate, t.sentAmount.currency.code, t.receivedAmount.currency.code)
            : '—',
        ],
        ['Rail', 'paymentRail' in t ? (t.paymentRail ?? '—') : '—'],
        ['Failure', t.failureReason ?? '—'],
        ['Quote', t.quoteId ?? '—'],
        ['Created', <LocalTime key="t" value={t.createdAt} />],
        ['Updated', <LocalTime key="u" value={t.updatedAt} />],
      ]}
    />
  );
}

/** A rail reference, shown short with its suffix (`:pull`, `:refund:2`) kept, copied whole. */
function Reference({ reference }: { reference: string }) {
  const suffix = /:(pull|refund(:\d+)?)$/.exec(reference)?.[0] ?? '';
  return <CopyId id={reference} label={`${shortId(reference.slice(0, reference.length - suffix.length))}${suffix}`} />;
}

// Where the payment stands with the payment rail, in words (lib/payments/rail-view.ts), the
// references the rail knows it by, and what staff may do about a refund that did not go through.
function PaymentRail({ id, rail, canAct }: { id: string; rail: RailView; canAct: boolean }) {
  return (
    <>
      <p className={`text-sm font-medium ${rail.needsStaff ? 'text-red-800' : ''}`} data-testid="rail-state">
        {rail.state}
      </p>
      {rail.note ? <p className="mt-1 text-sm break-words text-slate-700">{rail.note}</p> : null}
      <div className="mt-3">
        <Facts
          items={rail.references.map((r): [string, ReactNode] => [
            r.label,
            <Reference key={r.reference} reference={r.reference} />,
          ])}
        />
      </div>
      {rail.needsStaff && rail.refund ? (
        canAct ? (
          <RailRefundActions
            transactionId={id}
            attempt={rail.attempt}
            actions={rail.actions}
            amount={formatAmount(rail.refund.amount, rail.refund.currency)}
            nextReference={refundReferenceOf(id, rail.attempt + 1)}
            payerOwes={payerOwesText(rail)}
          />
        ) : (
          <p className="mt-3 text-sm text-slate-700">
            An operator or an admin can resolve this {rail.actions.includes('HAND_TO_RAIL') ? 'payment' : 'refund'}.
          </p>
        )
      ) : null}
    </>
  );
}

// What acting on the pull's reversal leaves the payer owing, in major units (RailView.payerOwes).
function payerOwesText(rail: RailView): string | null {
  if (rail.payerOwes === null || !rail.refund) return null;
  const money = (v: bigint) => formatAmount(v, rail.refund!.currency);
  if (rail.fromAccount !== null)
    return `${money(rail.fromAccount)} leaves the account's available balance${
      rail.payerOwes > 0n ? `; the customer will owe the other ${money(rail.payerOwes)} (payer receivable)` : ''
    }.`;
  if (rail.payerOwes > 0n) return `The payer will owe ${money(rail.payerOwes)}, recorded as payer receivable.`;
  if (rail.payerOwes < 0n) return `${money(-rail.payerOwes)} is set against what the payer owes.`;
  return 'The payer owes nothing after it.';
}

function Timeline({ moments }: { moments: Moment[] }) {
  return (
    <ol className="relative ml-2 border-l border-slate-300 text-sm">
      {moments.map((e, i) => (
        <li key={i} className="mb-3 ml-4">
          <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full bg-slate-500" aria-hidden="true" />
          <span className="font-medium">{e.what}</span>
          {e.detail ? <span className="text-slate-700"> · {e.detail}</span> : null}
          <span className="block text-slate-700">
            <LocalTime value={e.at} />
          </span>
        </li>
      ))}
    </ol>
  );
}

function LedgerPostings({ postings, names }: { postings: Posting[]; names: Map<string, Named> }) {
  if (!postings.length) return <Empty>No money has moved for this transaction.</Empty>;
  return postings.map((x) => (
    <div key={x.id} className="mb-4">
      <p className="mb-1 text-sm">
        <span className="font-medium">{x.kind}</span> <span className="font-mono text-xs">{shortId(x.id)}</span>{' '}
        <LocalTime value={x.createdAt} />
      </p>
      <Table caption={`Entries of posting ${x.id}`} head={['Account', 'Bucket', 'Amount']}>
        {x.lines.map((l, i) => (
          <tr key={i}>
            <Cell>
              {l.account.startsWith('InternalAccount:') ? (
                <NamedRef id={l.account} names={names} />
              ) : (
                <span className="font-mono text-xs">{l.account}</span>
              )}
            </Cell>
            <Cell>{l.bucket}</Cell>
            <Cell>{formatAmount(l.amount, l.currency)}</Cell>
          </tr>
        ))}
      </Table>
    </div>
  ));
}

export default async function TransactionPage({ params }: { params: Params }) {
  const actor = await requireStaff();
  const id = decodeURIComponent((await params).id);
  const p = actor.platformId;
  const d = await readOr404(actor, async () => {
    const t = await transactions.get(p, id);
    const [postings, hooks] = await Promise.all([postingsOf(id), listDeliveries(p, { subjectId: id }, 50)]);
    const audit = await historyOf(p, [id, ...hooks.data.map((h) => h.id)]);
    const names = await namesOf(
      p,
      [
        t.customerId,
        text(t.source.accountId) ?? '',
        text(t.destination.accountId) ?? '',
        ...postings.flatMap((x) => x.lines.map((l) => l.account)),
      ],
      db(),
    );
    return { t, postings, hooks, audit, names, rail: await railViewOf(p, id) };
  });
  const t = d.t;
  return (
    <>
      <PageHeader
        title={transactionTitle(t)}
        description={
          <>
            {t.type === 'INCOMING' ? 'Incoming payment' : 'Outgoing payment'} · <CopyId id={t.id} />
          </>
        }
      />
      <Section title="Summary">
        <Summary t={t} platformId={p} names={d.names} />
      </Section>
      {d.rail ? (
        <Section title="Payment rail">
          <PaymentRail id={t.id} rail={d.rail} canAct={hasRole(actor.role, 'operator')} />
        </Section>
      ) : null}
      <Section title="Timeline">
        <Timeline moments={timelineOf(t, d.hooks.data, d.postings)} />
      </Section>
      <Section title="Ledger postings">
        <LedgerPostings postings={d.postings} names={d.names} />
      </Section>
      <Section title="Webhook deliveries">
        <DeliveriesTable rows={d.hooks.data} caption="Webhook events about this transaction" />
      </Section>
      <Section title="Staff actions">
        <AuditList entries={d.audit} showObject />
      </Section>
    </>
  );
}
