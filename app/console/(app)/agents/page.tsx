import * as agents from '@/lib/agents/service';
import { AgentsTable } from '@/components/console/agents';
import { ExportLink, FilterForm, PagedResults } from '@/components/console/list-page';
import { PageHeader } from '@/components/ui';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { requireStaff } from '../../_lib/session';
import { param, read, readOrError } from '../../_lib/read';
import { agentFilters, agentQuery } from '../../_lib/list-filters';

export const metadata = { title: 'Agents · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const FLAGS: [string, string][] = [
  ['true', 'Yes'],
  ['false', 'No'],
];

export default async function AgentsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const filters = agentFilters(sp);
  const { customerId, isPaused, isConnected } = filters;
  const cursor = param(sp.cursor, 512);
  const result = await readOrError(actor, () =>
    agents.list(actor.platformId, { ...agentQuery(filters), limit: 25, cursor }),
  );
  const names = result.ok
    ? await read(actor, () =>
        namesOf(
          actor.platformId,
          result.value.data.map((a) => a.customerId),
          db(),
        ),
      )
    : new Map();
  return (
    <>
      <PageHeader
        title="Agents"
        description="AI agents acting for this platform's customers under a spending policy, newest first."
      />
      <FilterForm
        className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
        fields={[
          { name: 'customerId', label: 'Customer id', value: customerId },
          { name: 'isPaused', label: 'Paused', value: isPaused, options: FLAGS },
          { name: 'isConnected', label: 'Connected', value: isConnected, options: FLAGS },
        ]}
      />
      <ExportLink list="agents" params={filters} />
      <PagedResults
        result={result}
        path="/console/agents"
        params={{ customerId, isPaused, isConnected }}
        cursor={cursor}
        noMatch="No agent matches these filters."
        none="No agents yet: a platform creates them with POST /agents."
      >
        {(rows) => <AgentsTable rows={rows} caption="Agents" names={names} />}
      </PagedResults>
    </>
  );
}
