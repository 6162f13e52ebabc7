import * as invitations from '@/lib/staff/invitations';
import * as staff from '@/lib/staff/service';
import { historyOf } from '@/lib/staff/audit';
import { hasRole } from '@/lib/staff/roles';
import { LocalTime } from '@/components/time';
import { Pager } from '@/components/pager';
import { Badge, Cell, ErrorNote, PageHeader, Section, Table } from '@/components/ui';
import { AuditList } from '@/components/console/tables';
import { ActionButton } from '@/components/console/action-button';
import { RoleSelect, StaffForm } from '@/components/console/forms';
import {
  resetSecondFactorAction,
  revokeInvitationAction,
  setStaffDisabledAction,
  setStaffRoleAction,
} from '../../_lib/actions';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';

export const metadata = { title: 'Staff · Corridor console' };
type Search = Promise<Record<string, string | string[] | undefined>>;

/** Whether the member has a second factor; an admin may reset another member's (a lost phone). */
function FactorCell({ user, reset }: { user: staff.StaffUser; reset: boolean }) {
  return (
    <Cell>
      {user.secondFactor ? 'on' : 'off'}
      {reset && user.secondFactor ? (
        <span className="ml-2">
          <ActionButton
            action={resetSecondFactorAction.bind(null, user.id)}
            label="Reset"
            tone="plain"
            confirm={`Remove the second factor of ${user.email}? They will sign in with the password alone.`}
          />
        </span>
      ) : null}
    </Cell>
  );
}

/** Inviting a member, and the invitations not yet accepted with their expiry and a revoke button (admins only). */
async function Invitations({ platformId }: { platformId: string }) {
  const pending = await invitations.listPending(platformId);
  return (
    <>
      <Section title="Invite a staff member">
        <StaffForm />
      </Section>
      <Section title="Pending invitations">
        {pending.length === 0 ? (
          <p>None.</p>
        ) : (
          <Table caption="Pending invitations" head={['Email', 'Role', 'Expires', '']}>
            {pending.map((i) => (
              <tr key={i.id}>
                <Cell>{i.email}</Cell>
                <Cell>{i.role}</Cell>
                <Cell>
                  <LocalTime value={i.expiresAt} />
                </Cell>
                <Cell>
                  <ActionButton
                    action={revokeInvitationAction.bind(null, i.id)}
                    label="Revoke"
                    tone="danger"
                    confirm={`Revoke the invitation of ${i.email}? Its link stops working.`}
                  />
                </Cell>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}

export default async function StaffPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const cursor = param((await searchParams).cursor, 512);
  const admin = hasRole(actor.role, 'admin');
  const result = await readOrError(actor, () => staff.listUsers(actor.platformId, 25, cursor));
  const audit = result.ok
    ? await historyOf(
        actor.platformId,
        result.value.data.map((u) => u.id),
        20,
      )
    : [];
  return (
    <>
      <PageHeader
        title="Staff"
        description="People who use this console. Viewers read; operators also decide reviews, replay webhooks and move the sandbox clock; admins also manage tokens, configuration and staff."
      />
      {admin ? <Invitations platformId={actor.platformId} /> : null}
      {!result.ok ? (
        <ErrorNote>{result.error}</ErrorNote>
      ) : (
        <Section title="Staff members">
          <Table
            caption="Staff members"
            head={['Email', 'Role', 'State', 'Second factor', 'Added', ...(admin ? [''] : [])]}
          >
            {result.value.data.map((u) => (
              <tr key={u.id}>
                <Cell>{u.email}</Cell>
                <Cell>
                  {admin && u.id !== actor.staffUserId ? (
                    <RoleSelect userId={u.id} email={u.email} role={u.role} action={setStaffRoleAction} />
                  ) : (
                    u.role
                  )}
                </Cell>
                <Cell>
                  <Badge status={u.disabledAt ? 'DISABLED' : 'ACTIVE'} />
                </Cell>
                <FactorCell user={u} reset={admin && u.id !== actor.staffUserId} />
                <Cell>
                  <LocalTime value={u.createdAt} />
                </Cell>
                {admin ? (
                  <Cell>
                    {u.id === actor.staffUserId ? (
                      'you'
                    ) : (
                      <ActionButton
                        action={setStaffDisabledAction.bind(null, u.id, !u.disabledAt)}
                        label={u.disabledAt ? 'Enable' : 'Disable'}
                        tone={u.disabledAt ? 'plain' : 'danger'}
                      />
                    )}
                  </Cell>
                ) : null}
              </tr>
            ))}
          </Table>
          <Pager
            path="/console/staff"
            params={{}}
            nextCursor={result.value.nextCursor}
            hasCursor={Boolean(cursor)}
            shown={result.value.data.length}
            total={result.value.totalCount}
          />
        </Section>
      )}
      <Section title="Staff actions on these accounts">
        <AuditList entries={audit} showObject />
      </Section>
    </>
  );
}
