import * as transactions from '@/lib/payments/transactions/service';
import { PageHeader } from '@/components/ui';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { TransactionsTable, transactionIds } from '@/components/console/tables';
import { FilterForm, PagedResults } from '@/components/console/list-page';
import { requireStaff } from '../../_lib/session';
import { param, read, readOrError } from '../../_lib/read';

export const metadata = { title: 'Transactions · Corridor console' };

const STATUSES = [
  'CREATED',
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
];
type Search = Promise<Record<string, string | string[] | undefined>>;

function dateParam(v: string | undefined, endOfDay = false): Date | undefined {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const d = new Date(`${v}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export default async function TransactionsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const status = STATUSES.includes(param(sp.status) ?? '') ? param(sp.status) : undefined;
  const type = ['INCOMING', 'OUTGOING'].includes(param(sp.type) ?? '') ? param(sp.type) : undefined;
  const customerId = param(sp.customerId);
  const from = param(sp.from);
  const to = param(sp.to);
  const cursor = param(sp.cursor, 512);
  const filter = {
    status,
    type,
    customerId,
    startDate: dateParam(from),
    endDate: dateParam(to, true),
  };
  const result = await readOrError(actor, () => transactions.list(actor.platformId, filter, 25, 'desc', cursor));
  const names = result.ok
    ? await read(actor, () => namesOf(actor.platformId, transactionIds(result.value.data), db()))
    : new Map();
  return (
    <>
      <PageHeader title="Transactions" description="Payments in and out, newest first. Dates are UTC days." />
      <FilterForm
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr_1fr_1fr_auto] lg:items-end"
        fields={[
          { name: 'status', label: 'Status', value: status, options: STATUSES },
          {
            name: 'type',
            label: 'Direction',
            value: type,
            options: [
              ['INCOMING', 'Incoming'],
              ['OUTGOING', 'Outgoing'],
            ],
          },
          { name: 'customerId', label: 'Customer id', value: customerId },
          { name: 'from', label: 'From', value: from, type: 'date' },
          { name: 'to', label: 'To', value: to, type: 'date' },
        ]}
      />
      <PagedResults
        result={result}
        path="/console/transactions"
        params={{ status, type, customerId, from, to }}
        cursor={cursor}
        noMatch="No transaction matches these filters."
        none="No transactions yet."
      >
        {(rows) => <TransactionsTable rows={rows} caption="Transactions" names={names} />}
      </PagedResults>
    </>
  );
}
