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

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `${decodeURIComponent((await params).id)} · Corridor console` };
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
  const actions =
    canAct && c.state !== 'CLOSED' ? (
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
    ) : null;
  return (
    <>
      <PageHeader
        title={`${c.brand} •••• ${c.last4}`}
        description={<span className="font-mono break-all">{c.id}</span>}
      />
      <Section title="Card" actions={actions}>
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
        {d.events.length ? (
          <Table caption="Processor events" head={['Event', 'Amount', 'Outcome', 'Transaction', 'At']}>
            {d.events.map((e) => (
              <tr key={e.id}>
                <Cell>{e.kind}</Cell>
                <Cell>{formatAmount(e.amount, c.currency)}</Cell>
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
        ) : (
          <Empty>No processor events yet.</Empty>
        )}
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
