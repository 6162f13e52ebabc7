import { DomainError } from '@/lib/core/errors';
import { ApprovalQueue } from '@/components/console/approvals';
import { Pager } from '@/components/pager';
import { ErrorNote, PageHeader, Section } from '@/components/ui';
import { approvalQueue, type ApprovalPage } from '../../_lib/approvals';
import { hasRole, requireStaff } from '../../_lib/session';
import { param } from '../../_lib/read';

export const metadata = { title: 'Agent approvals · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;

// Agent actions held for the platform's approval, oldest first (the order they are owed a
// decision), read through lib/agents/approvals as the staff actor; decisions go through the same
// service as the API's approve and reject.
export default async function ApprovalsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const cursor = param((await searchParams).cursor, 512);
  let page: ApprovalPage;
  try {
    page = await approvalQueue(actor, cursor);
  } catch (err) {
    if (!(err instanceof DomainError && err.code === 'INVALID_INPUT')) throw err;
    return (
      <>
        <PageHeader title="Agent approvals" />
        <ErrorNote>{err.message}</ErrorNote>
      </>
    );
  }
  const canDecide = hasRole(actor.role, 'operator');
  return (
    <>
      <PageHeader
        title="Agent approvals"
        description="Actions of AI agents held by their policy until the platform approves or rejects them."
      />
      <Section title="Waiting for a decision">
        {!canDecide ? (
          <p className="mb-3 text-sm text-slate-700">Your role can view the queue; an operator decides.</p>
        ) : null}
        <ApprovalQueue key={cursor ?? ''} initial={page} cursor={cursor} canDecide={canDecide} />
        <Pager
          path="/console/approvals"
          params={{}}
          nextCursor={page.nextCursor ?? undefined}
          hasCursor={Boolean(cursor)}
          shown={page.rows.length}
          total={page.totalCount}
        />
      </Section>
    </>
  );
}
