import Link from 'next/link';
import { notFound } from 'next/navigation';
import * as cards from '@/lib/cards/service';
import * as transactions from '@/lib/payments/transactions/service';
import { isCardTransaction } from '@/lib/cards/presenter';
import { mccCategory } from '@/lib/cards/mcc';
import { db } from '@/lib/core/db';
import { listDeliveries } from '@/lib/webhooks/log';
import { namesOf } from '@/lib/staff/names';
import { formatAmount } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Facts, PageHeader, Section } from '@/components/ui';
import { DeliveriesTable } from '@/components/console/tables';
import { ProcessorEvents } from '@/components/console/cards';
import { CopyId } from '@/components/console/copy-id';
import { LiveStatus } from '@/components/console/live-status';
import { NamedRef } from '@/components/console/named';
import { requireStaff } from '../../../../../_lib/session';
import { readOr404 } from '../../../../../_lib/read';

type Params = Promise<{ id: string; txId: string }>;

export const metadata = { title: 'Card transaction · Corridor console' };

// One card transaction on its own page: the merchant as the network described it, the card and
// the account that paid, what was authorized, settled and refunded, and the processor's events.
export default async function CardTransactionPage({ params }: { params: Params }) {
  const actor = await requireStaff();
  const { id, txId } = await params;
  const cardId = decodeURIComponent(id);
  const p = actor.platformId;
  const d = await readOr404(actor, async () => {
    const t = await transactions.getAny(p, decodeURIComponent(txId));
    // A card transaction is only shown under its own card: another card's URL is not its page.
    if (!isCardTransaction(t) || t.cardId !== cardId) return null;
    const [card, events, hooks] = await Promise.all([
      cards.get(p, t.cardId),
      cards.processorEventsOf(p, t.cardId, 200),
      listDeliveries(p, { subjectId: t.id }, 20),
    ]);
    const names = await namesOf(p, [t.customerId, t.accountId], db());
    return { t, card, events: events.filter((e) => e.cardTransactionId === t.id), hooks, names };
  });
  if (!d) notFound();
  const { t, card, names } = d;
  const m = t.merchant ?? { descriptor: '' };
  const money = (a: { amount: bigint; currency: { code: string } }) => formatAmount(a.amount, a.currency.code);
  const category = mccCategory(m.mcc);
  return (
    <>
      <PageHeader
        title={m.descriptor || (t.direction === 'CREDIT' ? 'Card credit' : 'Card purchase')}
        description={
          <>
            {t.direction === 'CREDIT' ? 'Credit to' : 'Purchase with'}{' '}
            <Link className="text-blue-800 underline" href={`/console/cards/${encodeURIComponent(card.id)}`}>
              {card.brand} •••• {card.last4}
            </Link>{' '}
            · <CopyId id={t.id} />
          </>
        }
      />
      <Section title="Summary">
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
            ['Amount', money(t.authorizedAmount)],
            ['Settled', money(t.settledAmount)],
            ['Refunded', money(t.refundedAmount)],
            ['Merchant', m.descriptor || '—'],
            ['Category', category ? `${category} (${m.mcc})` : (m.mcc ?? '—')],
            ['Country', m.country ?? '—'],
            ['Cardholder', <NamedRef key="c" id={t.customerId} names={names} />],
            ['Paid from', <NamedRef key="a" id={t.accountId} names={names} />],
            [
              'Funding pulls',
              `${t.pullSummary.count} (${formatAmount(t.pullSummary.totalAmount, t.authorizedAmount.currency.code)}), ${t.pullSummary.pendingCount} pending`,
            ],
            ['Authorized', <LocalTime key="t" value={t.authorizedAt} />],
            ['Last event', t.lastEventAt ? <LocalTime key="l" value={t.lastEventAt} /> : '—'],
            [
              'Network reference',
              <span key="r" className="font-mono text-xs break-all">
                {t.issuerTransactionToken}
              </span>,
            ],
          ]}
        />
      </Section>
      <Section title="Processor events">
        <ProcessorEvents events={d.events} currency={card.currency} cardId={card.id} />
      </Section>
      <Section title="Webhooks about this transaction">
        <DeliveriesTable rows={d.hooks.data} caption="Card transaction webhooks" />
      </Section>
    </>
  );
}
