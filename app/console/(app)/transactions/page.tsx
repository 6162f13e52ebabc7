import * as transactions from '@/lib/payments/transactions/service';
import { Pager } from '@/components/pager';
import { Empty, ErrorNote, PageHeader, Section } from '@/components/ui';
import { TransactionsTable } from '@/components/console/tables';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';

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
  const field = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5';
  return (
    <>
      <PageHeader title="Transactions" description="Payments in and out, newest first. Dates are UTC days." />
      <Section title="Filters">
        <form
          method="get"
          className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr_1fr_1fr_auto] lg:items-end"
        >
          <div>
            <label htmlFor="status" className="block text-sm font-medium">
              Status
            </label>
            <select id="status" name="status" defaultValue={status ?? ''} className={field}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="type" className="block text-sm font-medium">
              Direction
            </label>
            <select id="type" name="type" defaultValue={type ?? ''} className={field}>
              <option value="">Any</option>
              <option value="INCOMING">Incoming</option>
              <option value="OUTGOING">Outgoing</option>
            </select>
          </div>
          <div>
            <label htmlFor="customerId" className="block text-sm font-medium">
              Customer id
            </label>
            <input id="customerId" name="customerId" defaultValue={customerId} className={field} />
          </div>
          <div>
            <label htmlFor="from" className="block text-sm font-medium">
              From
            </label>
            <input id="from" name="from" type="date" defaultValue={from} className={field} />
          </div>
          <div>
            <label htmlFor="to" className="block text-sm font-medium">
              To
            </label>
            <input id="to" name="to" type="date" defaultValue={to} className={field} />
          </div>
          <button type="submit" className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800">
            Apply
          </button>
        </form>
      </Section>
      {!result.ok ? (
        <ErrorNote>{result.error}</ErrorNote>
      ) : result.value.data.length ? (
        <Section title="Results">
          <TransactionsTable rows={result.value.data} caption="Transactions" />
          <Pager
            path="/console/transactions"
            params={{ status, type, customerId, from, to }}
            nextCursor={result.value.nextCursor}
            hasCursor={Boolean(cursor)}
            shown={result.value.data.length}
            total={result.value.totalCount}
          />
        </Section>
      ) : (
        <Empty>
          {status || type || customerId || from || to
            ? 'No transaction matches these filters.'
            : 'No transactions yet.'}
        </Empty>
      )}
    </>
  );
}
