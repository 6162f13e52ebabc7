'use client';
import { Suspense } from 'react';
import { usePathname, useSearchParams } from 'next/navigation';

// The console's one search box, in the header of every page (app/console/(app)/layout.tsx): a
// plain GET form to the search page, so it works before any script runs; on the search page it
// keeps what was searched.
function Form({ q }: { q: string }) {
  return (
    <form role="search" action="/console/search" method="get" className="mb-4 flex max-w-2xl gap-2">
      <label htmlFor="console-search" className="sr-only">
        Find anything in the console
      </label>
      <input
        id="console-search"
        name="q"
        type="search"
        key={q}
        defaultValue={q}
        maxLength={200}
        placeholder="Search: name, email, id, card last four, reference, amount"
        className="w-full min-w-0 rounded border border-slate-400 px-3 py-1.5 text-sm"
      />
      <button
        type="submit"
        className="rounded bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700"
      >
        Search
      </button>
    </form>
  );
}

function WithQuery() {
  const onSearchPage = usePathname() === '/console/search';
  const q = useSearchParams().get('q') ?? '';
  return <Form q={onSearchPage ? q : ''} />;
}

// Reading the URL's query suspends while a page is prerendered: the empty box stands in meanwhile.
export function SearchBox() {
  return (
    <Suspense fallback={<Form q="" />}>
      <WithQuery />
    </Suspense>
  );
}
