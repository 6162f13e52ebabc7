import { listDeliveries } from '@/lib/webhooks/log';
import { exportResponse, withNames } from '../../_lib/export';
import { searchOf, webhookFilters, webhookQuery } from '../../_lib/list-filters';

// GET /console/export/webhooks – the delivery log's events the filters select, as CSV, newest
// first like the list: each event's kind, what it is about (named when it is a customer or an
// account), its delivery state and the receiver's last answer.
export async function GET(req: Request) {
  const filters = webhookFilters(searchOf(new URL(req.url)));
  return exportResponse({
    list: 'webhooks',
    filters,
    header: [
      'Event type',
      'Subject',
      'Subject id',
      'Status',
      'Skip reason',
      'Attempts',
      'Last response',
      'Last attempt',
      'Delivered',
      'Next attempt',
      'Event id',
      'Created',
    ],
    page: async (actor, limit, cursor) =>
      withNames(
        actor.platformId,
        await listDeliveries(actor.platformId, webhookQuery(filters), limit, cursor),
        (rows) => rows.flatMap((d) => (d.subjectId ? [d.subjectId] : [])),
      ),
    row: ({ r: d, names }) => {
      const last = d.lastAttempt;
      return [
        d.type,
        d.subjectId ? (names.get(d.subjectId)?.name ?? '') : '',
        d.subjectId ?? '',
        d.status,
        d.skipReason ?? '',
        d.attempts,
        last ? (last.responseStatus !== null ? `HTTP ${last.responseStatus}` : (last.error ?? 'no answer')) : '',
        last?.startedAt,
        d.deliveredAt,
        d.nextAttemptAt,
        d.id,
        d.createdAt,
      ];
    },
  });
}
