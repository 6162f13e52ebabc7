import Link from 'next/link';

// Cursor pagination for server-rendered lists: the next page is a link carrying the list's
// filters and the nextCursor of this page; "first page" drops the cursor.
export function Pager({
  path,
  params,
  nextCursor,
  hasCursor,
  shown,
  total,
}: {
  path: string;
  params: Record<string, string | undefined>;
  nextCursor?: string;
  hasCursor: boolean;
  shown: number;
  total?: number;
}) {
  const href = (cursor?: string) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
    if (cursor) q.set('cursor', cursor);
    const s = q.toString();
    return s ? `${path}?${s}` : path;
  };
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-slate-700">
        {shown} shown{total !== undefined ? ` of ${total}` : ''}
      </span>
      <span className="flex gap-2">
        {hasCursor ? (
          <Link className="rounded border border-slate-400 px-3 py-1 hover:bg-slate-100" href={href()}>
            First page
          </Link>
        ) : null}
        {nextCursor ? (
          <Link className="rounded border border-slate-400 px-3 py-1 hover:bg-slate-100" href={href(nextCursor)}>
            Next page
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
