import { getDelivery } from '@/lib/webhooks/log';
import { historyOf } from '@/lib/staff/audit';
import { hasRole } from '@/lib/staff/roles';
import { LocalTime } from '@/components/time';
import { Facts, PageHeader, Section } from '@/components/ui';
import { AuditList } from '@/components/console/tables';
import { WebhookDetail } from '@/components/console/webhook-detail';
import { NamedRef } from '@/components/console/named';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { requireStaff } from '../../../_lib/session';
import { readOr404 } from '../../../_lib/read';

type Params = Promise<{ id: string }>;

const SKIPPED_BECAUSE: Record<string, string> = {
  NO_ENDPOINT: 'No webhook endpoint was configured',
  KIND_NOT_CHOSEN: 'The webhook endpoint does not receive this kind of event (Webhooks, event kinds sent)',
};

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `${decodeURIComponent((await params).id)} · Corridor console` };
}

export default async function WebhookPage({ params }: { params: Params }) {
  const actor = await requireStaff();
  const id = decodeURIComponent((await params).id);
  const d = await readOr404(actor, () => getDelivery(actor.platformId, id));
  const audit = await historyOf(actor.platformId, [id]);
  const subject = d.subjectId;
  const names = await namesOf(actor.platformId, subject ? [subject] : [], db());
  const subjectHref = subject?.startsWith('Transaction:')
    ? `/console/transactions/${encodeURIComponent(subject)}`
    : subject?.startsWith('Customer:')
      ? `/console/customers/${encodeURIComponent(subject)}`
      : null;
  return (
    <>
      <PageHeader title={d.type} description={<span className="font-mono break-all">{d.id}</span>} />
      <Section title="Event">
        <Facts
          items={[
            ['Recorded', <LocalTime key="c" value={d.createdAt} />],
            ['About', <NamedRef key="s" id={subject} names={names} href={subjectHref ?? undefined} />],
            ['Delivered', d.deliveredAt ? <LocalTime key="d" value={d.deliveredAt} /> : '—'],
            ['Next attempt', d.nextAttemptAt ? <LocalTime key="n" value={d.nextAttemptAt} /> : '—'],
            ...(d.skipReason ? [['Not sent', SKIPPED_BECAUSE[d.skipReason] ?? d.skipReason] as [string, string]] : []),
          ]}
        />
      </Section>
      <Section title="Deliveries">
        <WebhookDetail id={d.id} canReplay={hasRole(actor.role, 'operator')} />
      </Section>
      <Section title="Staff actions">
        <AuditList entries={audit} />
      </Section>
    </>
  );
}
