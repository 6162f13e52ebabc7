import * as cards from '@/lib/cards/service';
import { listDeliveries } from '@/lib/webhooks/log';
import { historyOf } from '@/lib/staff/audit';
import { hasRole } from '@/lib/staff/roles';
import { db } from '@/lib/core/db';
import { namesOf, type Named } from '@/lib/staff/names';
import { formatAmount } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Facts, PageHeader, Section } from '@/components/ui';
import { AuditList, DeliveriesTable } from '@/components/console/tables';
import { CardTransactionsTable, ProcessorEvents } from '@/components/console/cards';
import { CopyId } from '@/components/console/copy-id';
import { NamedRef } from '@/components/console/named';
import { ActionButton } from '@/components/console/action-button';
import { setCardStateAction } from '../../../_lib/actions';
import { requireStaff } from '../../../_lib/session';
import { readOr404 } from '../../../_lib/read';

type Params = Promise<{ id: string }>;
type Card = Awaited<ReturnType<typeof cards.get>>;

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

function CardFacts({ c, names }: { c: Card; names: Map<string, Named> }) {
  return (
    <Facts
      items={[
        ['State', <Badge key="s" status={c.state} />],
        ['State reason', c.stateReason ?? '—'],
        [
          'Cardholder',
          <NamedRef
            key="h"
            id={c.cardholderId}
            names={names}
            href={`/console/customers/${encodeURIComponent(c.cardholderId)}`}
          />,
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
    const names = await namesOf(p, [card.cardholderId, ...card.fundingSources], db());
    return { card, txs, events, hooks, audit, names };
  });
  const c = d.card;
  const canAct = hasRole(actor.role, 'operator');
  return (
    <>
      <PageHeader title={`${c.brand} •••• ${c.last4}`} description={<CopyId id={c.id} />} />
      <Section title="Card" actions={canAct && c.state !== 'CLOSED' ? <CardActions c={c} /> : null}>
        <CardFacts c={c} names={d.names} />
      </Section>
      <Section title="Funding sources (in priority order)">
        <ol className="list-decimal space-y-1 pl-6 text-sm">
          {c.fundingSources.map((a) => (
            <li key={a}>
              <NamedRef id={a} names={d.names} />
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Card transactions">
        <CardTransactionsTable rows={d.txs} caption="Card transactions" />
      </Section>
      <Section title="Processor events">
        <ProcessorEvents events={d.events} currency={c.currency} cardId={c.id} />
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
