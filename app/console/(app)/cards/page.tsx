import * as cards from '@/lib/cards/service';
import { CardsTable } from '@/components/console/cards';
import { Pager } from '@/components/pager';
import { Empty, ErrorNote, PageHeader, Section } from '@/components/ui';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';

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
  const field = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5';
  return (
    <>
      <PageHeader title="Cards" description="Cards issued to this platform's customers, newest first." />
      <Section title="Filters">
        <form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_2fr_auto] sm:items-end">
          <div>
            <label htmlFor="state" className="block text-sm font-medium">
              State
            </label>
            <select id="state" name="state" defaultValue={state ?? ''} className={field}>
              <option value="">Any</option>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="cardholderId" className="block text-sm font-medium">
              Cardholder id
            </label>
            <input id="cardholderId" name="cardholderId" defaultValue={cardholderId} className={field} />
          </div>
          <button type="submit" className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800">
            Apply
          </button>
        </form>
      </Section>
      {!result.ok ? (
        <ErrorNote>{result.error}</ErrorNote>
      ) : result.value.data.length ? (
        <Section title="Results">
          <CardsTable rows={result.value.data} caption="Cards" />
          <Pager
            path="/console/cards"
            params={{ state, cardholderId }}
            nextCursor={result.value.nextCursor}
            hasCursor={Boolean(cursor)}
            shown={result.value.data.length}
            total={result.value.totalCount}
          />
        </Section>
      ) : (
        <Empty>{state || cardholderId ? 'No card matches these filters.' : 'No cards issued yet.'}</Empty>
      )}
    </>
  );
}
