import * as cards from '@/lib/cards/service';
import { CardsTable } from '@/components/console/cards';
import { ExportLink, FilterForm, PagedResults } from '@/components/console/list-page';
import { PageHeader } from '@/components/ui';
import { db } from '@/lib/core/db';
import { namesOf } from '@/lib/staff/names';
import { requireStaff } from '../../_lib/session';
import { param, read, readOrError } from '../../_lib/read';
import { CARD_STATES, cardFilters, cardQuery } from '../../_lib/list-filters';

export const metadata = { title: 'Cards · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function CardsPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const filters = cardFilters(sp);
  const { state, cardholderId } = filters;
  const cursor = param(sp.cursor, 512);
  const result = await readOrError(actor, () => cards.list(actor.platformId, cardQuery(filters), 25, 'desc', cursor));
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
          { name: 'state', label: 'State', value: state, options: [...CARD_STATES] },
          { name: 'cardholderId', label: 'Cardholder id', value: cardholderId },
        ]}
      />
      <ExportLink list="cards" params={filters} />
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
