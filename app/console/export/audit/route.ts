import * as audit from '@/lib/staff/audit';
import { auditActionLabel } from '@/components/console/audit-actions';
import { exportResponse, withNames } from '../../_lib/export';
import { AUDIT_EXPORT_ROLE, auditFilters, auditQuery, searchOf } from '../../_lib/list-filters';

// GET /console/export/audit – the audit log's entries the filters select, as CSV, newest first
// like the page: who (their email at the time), what (as the page words it, and its code), to
// which object (named when it is a customer or an account), the outcome and the details as JSON.
export async function GET(req: Request) {
  const filters = auditFilters(searchOf(new URL(req.url)));
  return exportResponse({
    list: 'audit',
    role: AUDIT_EXPORT_ROLE,
    filters,
    header: [
      'When',
      'Staff email',
      'Action',
      'Action code',
      'Object',
      'Object id',
      'Outcome',
      'Details',
      'Staff id',
      'Entry id',
    ],
    page: async (actor, limit, cursor) =>
      withNames(actor.platformId, await audit.list(actor.platformId, auditQuery(filters), limit, cursor), (rows) =>
        rows.map((e) => e.objectId),
      ),
    row: ({ r: e, names }) => [
      e.createdAt,
      e.staffEmail,
      auditActionLabel(e.action),
      e.action,
      names.get(e.objectId)?.name ?? '',
      e.objectId,
      e.outcome,
      Object.keys(e.details).length ? JSON.stringify(e.details) : '',
      e.staffUserId,
      e.id,
    ],
  });
}
