import * as audit from '@/lib/staff/audit';
import { Pager } from '@/components/pager';
import { ErrorNote, PageHeader, Section } from '@/components/ui';
import { AuditList } from '@/components/console/tables';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';

export const metadata = { title: 'Audit log · Corridor console' };
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const cursor = param((await searchParams).cursor, 512);
  const result = await readOrError(actor, () => audit.list(actor.platformId, 50, cursor));
  return (
    <>
      <PageHeader title="Audit log" description="Every staff action on this platform, newest first." />
      {!result.ok ? (
        <ErrorNote>{result.error}</ErrorNote>
      ) : (
        <Section title="Staff actions">
          <AuditList entries={result.value.data} showObject />
          <Pager
            path="/console/audit"
            params={{}}
            nextCursor={result.value.nextCursor}
            hasCursor={Boolean(cursor)}
            shown={result.value.data.length}
            total={result.value.totalCount}
          />
        </Section>
      )}
    </>
  );
}
