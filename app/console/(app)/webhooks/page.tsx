import { listDeliveries } from '@/lib/webhooks/log';
import { Pager } from '@/components/pager';
import { Empty, ErrorNote, PageHeader, Section } from '@/components/ui';
import { DeliveriesTable } from '@/components/console/tables';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';

export const metadata = { title: 'Webhooks · Corridor console' };

const STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'];
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const status = STATUSES.includes(param(sp.status) ?? '') ? param(sp.status) : undefined;
  const type = param(sp.type, 64);
  const cursor = param(sp.cursor, 32);
  const result = await readOrError(actor, () =>
    listDeliveries(actor.platformId, { status, type: type || undefined }, 25, cursor),
  );
  const field = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5';
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Every event the platform was sent (or would have been, without an endpoint), newest first, with the receiver's answers."
      />
      <Section title="Filters">
        <form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end">
          <div>
            <label htmlFor="status" className="block text-sm font-medium">
              Delivery status
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
              Event type
            </label>
            <input
              id="type"
              name="type"
              defaultValue={type}
              placeholder="e.g. OUTGOING_PAYMENT.COMPLETED"
              className={field}
            />
          </div>
          <button type="submit" className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800">
            Apply
          </button>
        </form>
      </Section>
      {!result.ok ? (
        <ErrorNote>{result.error}</ErrorNote>
      ) : result.value.data.length ? (
        <Section title="Delivery log">
          <DeliveriesTable rows={result.value.data} caption="Webhook events" />
          <Pager
            path="/console/webhooks"
            params={{ status, type }}
            nextCursor={result.value.nextCursor}
            hasCursor={Boolean(cursor)}
            shown={result.value.data.length}
          />
        </Section>
      ) : (
        <Empty>{status || type ? 'No event matches these filters.' : 'No webhook events yet.'}</Empty>
      )}
    </>
  );
}
