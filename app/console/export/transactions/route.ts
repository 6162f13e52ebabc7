import * as transactions from '@/lib/payments/transactions/service';
import { amountCells } from '@/lib/core/csv';
import { counterpartyOf, receivedOf, sentOf, transactionIds, transactionTitle } from '@/components/console/tables';
import type { Named } from '@/lib/staff/names';
import { exportResponse, withNames } from '../../_lib/export';
import { searchOf, transactionFilters, transactionQuery } from '../../_lib/list-filters';

// GET /console/export/transactions – the transactions the list's filters select, as CSV, newest
// first like the list; customers and counterparties by name (read per page) beside their ids.
type Row = Awaited<ReturnType<typeof transactions.list>>['data'][number];
type Amount = { amount: bigint; currency: { code: string } } | undefined;

const amount = (a: Amount) => (a ? amountCells(a.amount, a.currency.code) : ['', '']);

export async function GET(req: Request) {
  const filters = transactionFilters(searchOf(new URL(req.url)));
  return exportResponse({
    list: 'transactions',
    filters,
    header: [
      'Transaction',
      'Type',
      'Status',
      'Customer',
      'Customer id',
      'Counterparty',
      'Counterparty id',
      'Sent amount',
      'Sent currency',
      'Received amount',
      'Received currency',
      'Transaction id',
      'Created',
    ],
    page: async (actor, limit, cursor) =>
      withNames(
        actor.platformId,
        await transactions.list(actor.platformId, transactionQuery(filters), limit, 'desc', cursor),
        transactionIds,
      ),
    row: ({ r: t, names }: { r: Row; names: Map<string, Named> }) => {
      const other = counterpartyOf(t);
      return [
        transactionTitle(t),
        t.type,
        t.status,
        names.get(t.customerId)?.name ?? '',
        t.customerId,
        other.label ?? (other.id ? (names.get(other.id)?.name ?? '') : ''),
        other.id ?? '',
        ...amount(sentOf(t)),
        ...amount(receivedOf(t)),
        t.id,
        t.createdAt,
      ];
    },
  });
}
