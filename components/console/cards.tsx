import Link from 'next/link';
import type { Card, CardTransaction } from '@/lib/cards/presenter';
import type { processorEventsOf } from '@/lib/cards/service';
import { mccCategory } from '@/lib/cards/mcc';
import type { Named } from '@/lib/staff/names';
import { formatAmount } from '../format';
import { LocalTime } from '../time';
import { Badge, Cell, Empty, Table } from '../ui';
import { CopyId } from './copy-id';
import { NamedRef } from './named';

// The console's card tables (server components): cards by number and cardholder name, card
// transactions by merchant, category and country, each linking to its own page.

type ProcessorEvent = Awaited<ReturnType<typeof processorEventsOf>>[number];

export const cardTransactionHref = (t: { id: string; cardId: string }) =>
  `/console/cards/${encodeURIComponent(t.cardId)}/transactions/${encodeURIComponent(t.id)}`;

export function CardsTable({
  rows,
  caption,
  names = new Map(),
}: {
  rows: Card[];
  caption: string;
  names?: Map<string, Named>;
}) {
  return (
    <Table caption={caption} head={['Card', 'Cardholder', 'State', 'Limit', 'Created']}>
      {rows.map((c) => (
        <tr key={c.id}>
          <Cell>
            <Link className="text-blue-800 underline" href={`/console/cards/${encodeURIComponent(c.id)}`}>
              {c.brand} •••• {c.last4}
            </Link>
            <span className="block text-xs break-all text-slate-700">{c.platformCardId}</span>
            <CopyId id={c.id} />
          </Cell>
          <Cell>
            <NamedRef id={c.cardholderId} names={names} />
          </Cell>
          <Cell>
            <Badge status={c.state} />
          </Cell>
          <Cell>
            {c.maxSpendPerTransaction !== null ? formatAmount(c.maxSpendPerTransaction, c.currency) : 'No limit'}
          </Cell>
          <Cell>
            <LocalTime value={c.createdAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

/** "Fast food and coffee shops (5814)", or the code alone when it names no category. */
export function categoryOf(t: CardTransaction): string {
  const mcc = t.merchant?.mcc;
  const name = mccCategory(mcc);
  return name ? `${name} (${mcc})` : (mcc ?? '—');
}

export function CardTransactionsTable({ rows, caption }: { rows: CardTransaction[]; caption: string }) {
  if (!rows.length) return <Empty>No card transactions yet.</Empty>;
  return (
    <Table caption={caption} head={['Merchant', 'Category', 'Country', 'Status', 'Amount', 'Date']}>
      {rows.map((t) => (
        <tr key={t.id}>
          <Cell>
            <Link className="break-words text-blue-800 underline" href={cardTransactionHref(t)}>
              {t.merchant?.descriptor ?? (t.direction === 'CREDIT' ? 'Card credit' : 'Card purchase')}
            </Link>
            <CopyId id={t.id} />
          </Cell>
          <Cell>{categoryOf(t)}</Cell>
          <Cell>{t.merchant?.country ?? '—'}</Cell>
          <Cell>
            <Badge status={t.status} />
          </Cell>
          <Cell>
            <span className="whitespace-nowrap">
              {t.direction === 'CREDIT' ? '+' : ''}
              {formatAmount(t.authorizedAmount.amount, t.authorizedAmount.currency.code)}
            </span>
            {t.refundedAmount.amount > 0n ? (
              <span className="block text-xs text-slate-700">
                refunded {formatAmount(t.refundedAmount.amount, t.refundedAmount.currency.code)}
              </span>
            ) : null}
          </Cell>
          <Cell>
            <LocalTime value={t.authorizedAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

/** Approvals and declines as the processor sent them, each linked to its card transaction. */
export function ProcessorEvents({
  events,
  currency,
  cardId,
}: {
  events: ProcessorEvent[];
  currency: string;
  cardId: string;
}) {
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
          <Cell>
            {e.cardTransactionId ? (
              <Link
                className="text-blue-800 underline"
                href={cardTransactionHref({ id: e.cardTransactionId, cardId })}
                aria-label={`View card transaction ${e.cardTransactionId}`}
              >
                View
              </Link>
            ) : (
              '—'
            )}
          </Cell>
          <Cell>
            <LocalTime value={e.createdAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}
