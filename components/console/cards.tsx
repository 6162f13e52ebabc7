import Link from 'next/link';
import type { Card } from '@/lib/cards/presenter';
import { formatAmount, shortId } from '../format';
import { LocalTime } from '../time';
import { Badge, Cell, Table } from '../ui';

// The cards table of the console's cards page and customer page (server component).
export function CardsTable({ rows, caption }: { rows: Card[]; caption: string }) {
  return (
    <Table caption={caption} head={['Card', 'Number', 'State', 'Cardholder', 'Limit', 'Created']}>
      {rows.map((c) => (
        <tr key={c.id}>
          <Cell mono>
            <Link className="text-blue-800 underline" href={`/console/cards/${encodeURIComponent(c.id)}`}>
              {shortId(c.id)}
            </Link>
            <span className="block text-xs text-slate-700">{c.platformCardId}</span>
          </Cell>
          <Cell mono>
            {c.brand} •••• {c.last4}
          </Cell>
          <Cell>
            <Badge status={c.state} />
          </Cell>
          <Cell mono>
            <Link className="text-blue-800 underline" href={`/console/customers/${encodeURIComponent(c.cardholderId)}`}>
              {shortId(c.cardholderId)}
            </Link>
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
