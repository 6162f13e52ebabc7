import Link from 'next/link';
import type { Named } from '@/lib/staff/names';
import { CopyId } from './copy-id';

/**
 * A person or an account by name, linked to its page, with its id underneath to copy. An id the
 * names read did not resolve (deleted, another platform's) shows as the id alone.
 */
export function NamedRef({
  id,
  names,
  href,
}: {
  id: string | null | undefined;
  names: Map<string, Named>;
  href?: string;
}) {
  if (!id) return <span>—</span>;
  const n = names.get(id);
  const to = href ?? n?.href;
  const label = n?.name ?? id;
  return (
    <span className="block min-w-0">
      {to ? (
        <Link className="break-words text-blue-800 underline" href={to}>
          {label}
        </Link>
      ) : (
        <span className="break-words">{label}</span>
      )}
      {n ? (
        <span className="block">
          <CopyId id={id} />
        </span>
      ) : null}
    </span>
  );
}
