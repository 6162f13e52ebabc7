import * as cards from '@/lib/cards/service';
import { CardsTable } from '@/components/console/cards';
import { FilterForm, PagedResults } from '@/components/console/list-page';
import { PageHeader } from '@/components/ui';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { requireStaff } from '../../_lib/session';
import { param, read, readOrError } from '../../_lib/read';

export const metadata = { title: 'Cards · Corridor console' };

const STATES = ['PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'];
type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function CardsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const state = STATES.includes(param(sp.state) ?? '') ? param(sp.state) : undefined;
  const cardholderId = param(sp.cardholderId);
  const cursor = param(sp.cursor, 512);
  const result = await readOrError(actor, () =>
    cards.list(actor.platformId, { state, cardholderId }, 25, 'desc', cursor),
  );
  const names = result.ok
    ? await read(actor, () =>
        namesOf(
          actor.platformId,
          result.value.data.map((c) => c.cardholderId),
          db(),
        ),
      )
    : new Map();
  return (
    <>
      <PageHeader title="Cards" description="Cards issued to this platform's customers, newest first." />
      <FilterForm
        className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
        fields={[
          { name: 'state', label: 'State', value: state, options: STATES },
          { name: 'cardholderId', label: 'Cardholder id', value: cardholderId },
        ]}
      />
      <PagedResults
        result={result}
        path="/console/cards"
        params={{ state, cardholderId }}
        cursor={cursor}
        noMatch="No card matches these filters."
        none="No cards issued yet."
      >
        {(rows) => <CardsTable rows={rows} caption="Cards" names={names} />}
      </PagedResults>
    </>
  );
}
