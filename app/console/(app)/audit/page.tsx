import * as audit from '@/lib/staff/audit';
import { hasRole } from '@/lib/staff/roles';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { AUDIT_ACTIONS } from '@/components/console/audit-actions';
import { ExportLink, FilterForm, PagedResults } from '@/components/console/list-page';
import { PageHeader } from '@/components/ui';
import { AuditList } from '@/components/console/tables';
import { requireStaff } from '../../_lib/session';
import { param, read, readOrError } from '../../_lib/read';
import { AUDIT_EXPORT_ROLE, auditFilters, auditQuery } from '../../_lib/list-filters';

export const metadata = { title: 'Audit log · Corridor console' };
type Search = Promise<Record<string, string | string[] | undefined>>;

// The actions by what they read as, alphabetically (the codes' order groups them by object).
const ACTION_OPTIONS = Object.entries(AUDIT_ACTIONS).sort((a, b) => a[1].localeCompare(b[1]));

export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const filters = auditFilters(sp);
  const { actor: by, action, from, to } = filters;
  const cursor = param(sp.cursor, 512);
  const result = await readOrError(actor, () => audit.list(actor.platformId, auditQuery(filters), 50, cursor));
  const names = result.ok
    ? await read(actor, () =>
        namesOf(
          actor.platformId,
          result.value.data.map((e) => e.objectId),
          db(),
        ),
      )
    : new Map();
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every staff action on this platform, newest first. Dates are UTC days."
      />
      <FilterForm
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_2fr_1fr_1fr_auto] lg:items-end"
        fields={[
          { name: 'actor', label: 'Staff email', value: by, placeholder: 'e.g. ops@example.com' },
          { name: 'action', label: 'Action', value: action, options: ACTION_OPTIONS },
          { name: 'from', label: 'From', value: from, type: 'date' },
          { name: 'to', label: 'To', value: to, type: 'date' },
        ]}
      />
      {hasRole(actor.role, AUDIT_EXPORT_ROLE) ? (
        <ExportLink list="audit" what="audit log entries" params={filters} />
      ) : (
        <p className="mb-3 text-right text-sm text-slate-700">Exporting the audit log needs the admin role.</p>
      )}
      <PagedResults
        result={result}
        title="Staff actions"
        path="/console/audit"
        params={filters}
        cursor={cursor}
        noMatch="No staff action matches these filters."
        none="No staff action recorded yet."
      >
        {(rows) => <AuditList entries={rows} showObject names={names} />}
      </PagedResults>
    </>
  );
}
