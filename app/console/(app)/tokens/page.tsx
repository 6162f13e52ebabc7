import * as tokens from '@/lib/tokens/service';
import { historyOf } from '@/lib/staff/audit';
import { hasRole } from '@/lib/staff/roles';
import { shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Pager } from '@/components/pager';
import { Cell, Empty, ErrorNote, PageHeader, Section, Table } from '@/components/ui';
import { AuditList } from '@/components/console/tables';
import { ActionButton } from '@/components/console/action-button';
import { TokenForm } from '@/components/console/forms';
import { revokeTokenAction } from '../../_lib/actions';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';

export const metadata = { title: 'API tokens · Corridor console' };
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function TokensPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const cursor = param((await searchParams).cursor, 512);
  const admin = hasRole(actor.role, 'admin');
  const result = await readOrError(actor, () => tokens.list(actor.platformId, {}, 25, cursor));
  const audit = result.ok
    ? await historyOf(
        actor.platformId,
        result.value.data.map((t) => t.id),
        20,
      )
    : [];
  return (
    <>
      <PageHeader title="API tokens" description="Credentials for the API (HTTP Basic: client id and secret)." />
      {admin ? (
        <Section title="New token">
          <TokenForm />
        </Section>
      ) : null}
      {!result.ok ? (
        <ErrorNote>{result.error}</ErrorNote>
      ) : result.value.data.length ? (
        <Section title="Tokens">
          <Table caption="API tokens" head={['Name', 'Client id', 'Permissions', 'Created', ...(admin ? [''] : [])]}>
            {result.value.data.map((t) => (
              <tr key={t.id}>
                <Cell>
                  {t.name}
                  <span className="block font-mono text-xs text-slate-700">{shortId(t.id)}</span>
                </Cell>
                <Cell mono>{t.clientId}</Cell>
                <Cell>{t.permissions.join(', ')}</Cell>
                <Cell>
                  <LocalTime value={t.createdAt} />
                </Cell>
                {admin ? (
                  <Cell>
                    <ActionButton
                      action={revokeTokenAction.bind(null, t.id)}
                      label="Revoke"
                      tone="danger"
                      confirm={`Revoke the token "${t.name}"? Programs using it stop working at once.`}
                    />
                  </Cell>
                ) : null}
              </tr>
            ))}
          </Table>
          <Pager
            path="/console/tokens"
            params={{}}
            nextCursor={result.value.nextCursor}
            hasCursor={Boolean(cursor)}
            shown={result.value.data.length}
            total={result.value.totalCount}
          />
        </Section>
      ) : (
        <Empty>No API tokens.</Empty>
      )}
      <Section title="Staff actions on these tokens">
        <AuditList entries={audit} showObject />
      </Section>
    </>
  );
}
