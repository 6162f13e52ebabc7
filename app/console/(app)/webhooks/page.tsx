import { listDeliveries } from '@/lib/webhooks/log';
import { PageHeader } from '@/components/ui';
import { DeliveriesTable } from '@/components/console/tables';
import { FilterForm, PagedResults } from '@/components/console/list-page';
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
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Every event the platform was sent (or would have been, without an endpoint), newest first, with the receiver's answers."
      />
      <FilterForm
        className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
        fields={[
          { name: 'status', label: 'Delivery status', value: status, options: STATUSES },
          { name: 'type', label: 'Event type', value: type, placeholder: 'e.g. OUTGOING_PAYMENT.COMPLETED' },
        ]}
      />
      <PagedResults
        result={result}
        title="Delivery log"
        path="/console/webhooks"
        params={{ status, type }}
        cursor={cursor}
        noMatch="No event matches these filters."
        none="No webhook events yet."
      >
        {(rows) => <DeliveriesTable rows={rows} caption="Webhook events" />}
      </PagedResults>
    </>
  );
}
