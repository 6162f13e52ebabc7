import * as transactions from '@/lib/payments/transactions/service';
import { PageHeader } from '@/components/ui';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { TransactionsTable, transactionIds } from '@/components/console/tables';
import { ExportLink, FilterForm, PagedResults } from '@/components/console/list-page';
import { requireStaff } from '../../_lib/session';
import { param, read, readOrError } from '../../_lib/read';
import { TRANSACTION_STATUSES, transactionFilters, transactionQuery } from '../../_lib/list-filters';

export const metadata = { title: 'Transactions · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function TransactionsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const filters = transactionFilters(sp);
  const { status, type, customerId, from, to, rail } = filters;
  const cursor = param(sp.cursor, 512);
  const filter = transactionQuery(filters);
  const result = await readOrError(actor, () => transactions.list(actor.platformId, filter, 25, 'desc', cursor));
  const names = result.ok
    ? await read(actor, () => namesOf(actor.platformId, transactionIds(result.value.data), db()))
    : new Map();
  return (
    <>
      <PageHeader title="Transactions" description="Payments in and out, newest first. Dates are UTC days." />
      <FilterForm
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_2fr_1fr_1fr_auto] lg:items-end"
        fields={[
          { name: 'status', label: 'Status', value: status, options: [...TRANSACTION_STATUSES] },
          {
            name: 'type',
            label: 'Direction',
            value: type,
            options: [
              ['INCOMING', 'Incoming'],
              ['OUTGOING', 'Outgoing'],
            ],
          },
          {
            name: 'rail',
            label: 'Payment rail',
            value: rail,
            options: [
              ['WAITING', 'Waiting on the rail'],
              ['STAFF', 'Refund needs staff'],
            ],
          },
          { name: 'customerId', label: 'Customer id', value: customerId },
          { name: 'from', label: 'From', value: from, type: 'date' },
          { name: 'to', label: 'To', value: to, type: 'date' },
        ]}
      />
      <ExportLink list="transactions" params={filters} />
      <PagedResults
        result={result}
        path="/console/transactions"
        params={{ status, type, customerId, from, to, rail }}
        cursor={cursor}
        noMatch="No transaction matches these filters."
        none="No transactions yet."
      >
        {(rows) => <TransactionsTable rows={rows} caption="Transactions" names={names} />}
      </PagedResults>
    </>
  );
}
