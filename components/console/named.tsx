import Link from 'next/link';
import type { Named } from '@/lib/staff/names';
import { shortId } from '../format';
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
  // Platform-initiated transactions carry the platform's own id where a customer would be.
  if (id.startsWith('Platform:')) return <span>Platform</span>;
  const n = names.get(id);
  const to = href ?? n?.href;
  if (!n)
    // Not resolved (deleted, or no names read on this page): the id itself, copyable, still linked.
    return (
      <span className="block min-w-0">
        {to ? (
          <Link className="text-blue-800 underline" href={to}>
            {shortId(id)}
          </Link>
        ) : null}
        <CopyId id={id} />
      </span>
    );
  return (
    <span className="block min-w-0">
      {to ? (
        <Link className="break-words text-blue-800 underline" href={to}>
          {n.name}
        </Link>
      ) : (
        <span className="break-words">{n.name}</span>
      )}
      <span className="block">
        <CopyId id={id} />
      </span>
    </span>
  );
}
