import Link from 'next/link';
import * as cards from '@/lib/cards/service';
import { listDeliveries } from '@/lib/webhooks/log';
import { historyOf } from '@/lib/staff/audit';
import { hasRole } from '@/lib/staff/roles';
import { formatAmount, shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Cell, Empty, Facts, PageHeader, Section, Table } from '@/components/ui';
import { AuditList, DeliveriesTable, TransactionsTable } from '@/components/console/tables';
import { ActionButton } from '@/components/console/action-button';
import { setCardStateAction } from '../../../_lib/actions';
import { requireStaff } from '../../../_lib/session';
import { readOr404 } from '../../../_lib/read';

type Params = Promise<{ id: string }>;
type Card = Awaited<ReturnType<typeof cards.get>>;
type ProcessorEvent = Awaited<ReturnType<typeof cards.processorEventsOf>>[number];

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `${decodeURIComponent((await params).id)} · Corridor console` };
}

/** Freeze, unfreeze and close, as the card's state allows. */
function CardActions({ c }: { c: Card }) {
  return (
    <div className="flex flex-wrap gap-2">
      {c.state === 'ACTIVE' ? (
        <ActionButton action={setCardStateAction.bind(null, c.id, 'FROZEN')} label="Freeze" done="Frozen" />
      ) : null}
      {c.state === 'FROZEN' ? (
        <ActionButton action={setCardStateAction.bind(null, c.id, 'ACTIVE')} label="Unfreeze" done="Active again" />
      ) : null}
      {c.state === 'ACTIVE' || c.state === 'FROZEN' ? (
        <ActionButton
          action={setCardStateAction.bind(null, c.id, 'CLOSED')}
          label="Close card"
          tone="danger"
          confirm="Close this card? Closing is permanent: the card can never transact again."
          done="Closed"
        />
      ) : null}
    </div>
  );
}

function CardFacts({ c }: { c: Card }) {
  return (
    <Facts
      items={[
        ['State', <Badge key="s" status={c.state} />],
        ['State reason', c.stateReason ?? '—'],
        [
          'Cardholder',
          <Link
            key="h"
            className="font-mono text-blue-800 underline"
            href={`/console/customers/${encodeURIComponent(c.cardholderId)}`}
          >
            {shortId(c.cardholderId)}
          </Link>,
        ],
        ['Platform card id', c.platformCardId],
        ['Form', c.form],
        ['Expires', `${String(c.expMonth).padStart(2, '0')}/${c.expYear}`],
        ['Currency', c.currency],
        [
          'Limit per transaction',
          c.maxSpendPerTransaction !== null ? formatAmount(c.maxSpendPerTransaction, c.currency) : 'No limit',
        ],
        ['Created', <LocalTime key="t" value={c.createdAt} />],
      ]}
    />
  );
}

function ProcessorEvents({ events, currency }: { events: ProcessorEvent[]; currency: string }) {
  if (!events.length) return <Empty>No processor events yet.</Empty>;
  return (
    <Table caption="Processor events" head={['Event', 'Amount', 'Outcome', 'Transaction', 'At']}>
      {events.map((e) => (
        <tr key={e.id}>
          <Cell>{e.kind}</Cell>
          <Cell>{formatAmount(e.amount, currency)}</Cell>
          <Cell>
            <Badge status={e.outcome} />
            {e.declineReason ? <span className="ml-2 text-sm">{e.declineReason}</span> : null}
          </Cell>
          <Cell mono>{shortId(e.cardTransactionId)}</Cell>
          <Cell>
            <LocalTime value={e.createdAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

export default async function CardPage({ params }: { params: Params }) {
  const actor = await requireStaff();
  const id = decodeURIComponent((await params).id);
  const p = actor.platformId;
  const d = await readOr404(actor, async () => {
    const card = await cards.get(p, id);
    const [txs, events, hooks, audit] = await Promise.all([
      cards.transactionsOf(p, id),
      cards.processorEventsOf(p, id),
      listDeliveries(p, { subjectId: id }, 20),
      historyOf(p, [id]),
    ]);
    return { card, txs, events, hooks, audit };
  });
  const c = d.card;
  const canAct = hasRole(actor.role, 'operator');
  return (
    <>
      <PageHeader
        title={`${c.brand} •••• ${c.last4}`}
        description={<span className="font-mono break-all">{c.id}</span>}
      />
      <Section title="Card" actions={canAct && c.state !== 'CLOSED' ? <CardActions c={c} /> : null}>
        <CardFacts c={c} />
      </Section>
      <Section title="Funding sources (in priority order)">
        <ol className="list-decimal pl-6 font-mono text-sm">
          {c.fundingSources.map((a) => (
            <li key={a} className="break-all">
              {a}
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Card transactions">
        <TransactionsTable rows={d.txs} caption="Card transactions" />
      </Section>
      <Section title="Processor events">
        <ProcessorEvents events={d.events} currency={c.currency} />
      </Section>
      <Section title="Webhooks about this card">
        <DeliveriesTable rows={d.hooks.data} caption="Card webhooks" />
      </Section>
      <Section title="Staff actions">
        <AuditList entries={d.audit} />
      </Section>
    </>
  );
}
