import Link from 'next/link';
import { listDeliveries, webhookSettings } from '@/lib/webhooks/log';
import { hasRole } from '@/lib/staff/roles';
import { PageHeader, Section } from '@/components/ui';
import { EventKindsForm, SendTestEvent } from '@/components/console/webhook-settings';
import { DeliveriesTable } from '@/components/console/tables';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { ExportLink, FilterForm, PagedResults } from '@/components/console/list-page';
import { requireStaff } from '../../_lib/session';
import { param, read, readOrError } from '../../_lib/read';
import { DELIVERY_STATUSES, webhookFilters, webhookQuery } from '../../_lib/list-filters';

export const metadata = { title: 'Webhooks · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const filters = webhookFilters(sp);
  const { status, type } = filters;
  const cursor = param(sp.cursor, 32);
  const result = await readOrError(actor, () => listDeliveries(actor.platformId, webhookQuery(filters), 25, cursor));
  const settings = await read(actor, () => webhookSettings(actor.platformId));
  const subjects = result.ok ? result.value.data.flatMap((d) => (d.subjectId ? [d.subjectId] : [])) : [];
  const names = await read(actor, () => namesOf(actor.platformId, subjects, db()));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Every event the platform was sent (or would have been, without an endpoint), newest first, with the receiver's answers."
      />
      <EndpointSection settings={settings} role={actor.role} />
      <FilterForm
        className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
        fields={[
          { name: 'status', label: 'Delivery status', value: status, options: [...DELIVERY_STATUSES] },
          { name: 'type', label: 'Event type', value: type, placeholder: 'e.g. OUTGOING_PAYMENT.COMPLETED' },
        ]}
      />
      <ExportLink list="webhooks" what="webhook events" params={filters} />
      <PagedResults
        result={result}
        title="Delivery log"
        path="/console/webhooks"
        params={{ status, type }}
        cursor={cursor}
        noMatch="No event matches these filters."
        none="No webhook events yet."
      >
        {(rows) => <DeliveriesTable rows={rows} caption="Webhook events" names={names} />}
      </PagedResults>
    </>
  );
}

type Settings = Awaited<ReturnType<typeof webhookSettings>>;

function EndpointSection({ settings, role }: { settings: Settings; role: Parameters<typeof hasRole>[0] }) {
  return (
    <>
      <Section title="Endpoint">
        <p className="mb-3 text-sm break-all">
          {settings.endpoint ? (
            <>
              Events are sent to <span className="font-mono">{settings.endpoint}</span>, signed with the platform&apos;s
              key (X-Grid-Signature).
            </>
          ) : (
            <>No webhook endpoint is configured: events are recorded but not sent.</>
          )}{' '}
          <Link className="text-blue-800 underline" href="/console/settings">
            Change it in Settings
          </Link>
        </p>
        {settings.endpoint && hasRole(role, 'operator') ? <SendTestEvent /> : null}
      </Section>
      <Section title="Event kinds sent">
        <p className="mb-3 text-sm">
          {settings.all
            ? 'Every kind is sent (the default; kinds added later are sent too).'
            : `${settings.chosen.length} of ${settings.kinds.length} kinds are sent; events of the others are recorded as skipped and never retried. Test events are always sent.`}
        </p>
        {settings.chosen.includes('INCOMING_PAYMENT.PENDING') ? null : (
          <p className="mb-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950">
            INCOMING_PAYMENT.PENDING is not sent: incoming payments still wait for the platform&apos;s decision (POST
            /transactions/&#123;id&#125;/approve or /reject) and time out without one.
          </p>
        )}
        <EventKindsForm kinds={settings.kinds} chosen={settings.chosen} canEdit={hasRole(role, 'admin')} />
      </Section>
    </>
  );
}
