import type { ReactNode } from 'react';
import { Pager } from '../pager';
import { Empty, ErrorNote, Section } from '../ui';

// The two halves of every console list page (server components): a GET form whose fields become
// the page's search parameters, and the page of rows it found with a pager carrying those filters.

const field = 'mt-1 w-full rounded border border-slate-400 px-2 py-1.5';

/** A select (its first option "Any") when it has options, else a text or date input. */
export type FilterField = { name: string; label: string; value?: string } & (
  { options: (string | [value: string, label: string])[] } | { type?: 'date'; placeholder?: string }
);

function FilterControl({ f }: { f: FilterField }) {
  if ('options' in f)
    return (
      <select id={f.name} name={f.name} defaultValue={f.value ?? ''} className={field}>
        <option value="">Any</option>
        {f.options.map((o) => {
          const [value, label] = typeof o === 'string' ? [o, o] : o;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    );
  return (
    <input
      id={f.name}
      name={f.name}
      type={f.type}
      defaultValue={f.value}
      placeholder={f.placeholder}
      className={field}
    />
  );
}

export function FilterForm({
  title = 'Filters',
  className,
  fields,
}: {
  title?: string;
  /** The form's grid: how many columns the fields take at which width. */
  className: string;
  fields: FilterField[];
}) {
  return (
    <Section title={title}>
      <form method="get" className={className}>
        {fields.map((f) => (
          <div key={f.name}>
            <label htmlFor={f.name} className="block text-sm font-medium">
              {f.label}
            </label>
            <FilterControl f={f} />
          </div>
        ))}
        <button type="submit" className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800">
          Apply
        </button>
      </form>
    </Section>
  );
}

type Found<T> =
  { ok: true; value: { data: T[]; nextCursor?: string; totalCount?: number } } | { ok: false; error: string };

/**
 * A page of rows (drawn by children) and its pager; the read's refusal (a bad filter or cursor)
 * instead, or when nothing was found, one message for "nothing matches the filters" and one for
 * "nothing yet".
 */
export function PagedResults<T>({
  result,
  title = 'Results',
  path,
  params,
  cursor,
  noMatch,
  none,
  children,
}: {
  result: Found<T>;
  title?: string;
  path: string;
  /** The filters, carried to the next page; any of them set makes an empty page "no match". */
  params: Record<string, string | undefined>;
  cursor?: string;
  noMatch: string;
  none: string;
  children: (rows: T[]) => ReactNode;
}) {
  if (!result.ok) return <ErrorNote>{result.error}</ErrorNote>;
  const { data, nextCursor, totalCount } = result.value;
  if (!data.length) return <Empty>{Object.values(params).some(Boolean) ? noMatch : none}</Empty>;
  return (
    <Section title={title}>
      {children(data)}
      <Pager
        path={path}
        params={params}
        nextCursor={nextCursor}
        hasCursor={Boolean(cursor)}
        shown={data.length}
        total={totalCount}
      />
    </Section>
  );
}

/**
 * "Export CSV": every row the current filters select (all pages), as the list's download
 * (app/console/export/<list>); the link carries the filters, never the page's cursor.
 */
export function ExportLink({
  list,
  what = list,
  params,
}: {
  list: string;
  /** What the rows are, for screen readers ("the <what> these filters select"). */
  what?: string;
  params: Record<string, string | undefined>;
}) {
  const qs = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
  const query = qs.toString();
  return (
    <p className="mb-3 text-right">
      <a className="text-blue-800 underline" href={`/console/export/${list}${query ? `?${query}` : ''}`} download>
        Export CSV<span className="sr-only"> of the {what} these filters select</span>
      </a>
    </p>
  );
}
