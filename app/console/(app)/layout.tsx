import type { ReactNode } from 'react';
import Link from 'next/link';
import { isSandbox } from '@/lib/core/mode';
import { QueryProvider } from '@/components/query-provider';
import { ConsoleNav } from '@/components/console/nav';
import { SearchBox } from '@/components/console/search-box';
import { requireStaff } from '../_lib/session';
import { signOutAction } from '../_lib/actions';
import { pendingCount } from '../_lib/approvals';
import { countLabel } from '../_lib/counts';

const waitingLabel = (n: number | undefined) => (n === 0 ? undefined : countLabel(n));

export const metadata = { title: 'Corridor console' };

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const actor = await requireStaff();
  return (
    <QueryProvider>
      <div className="min-h-screen lg:flex">
        <aside className="border-b border-slate-200 bg-white p-3 lg:min-h-screen lg:w-56 lg:border-r lg:border-b-0">
          <div className="mb-3 flex items-center justify-between gap-2 lg:block">
            <Link href="/console" className="text-lg font-semibold">
              Corridor console
            </Link>
            {isSandbox() ? (
              <span className="ml-2 rounded bg-amber-200 px-2 py-0.5 text-xs font-medium text-amber-950 lg:ml-0">
                Sandbox
              </span>
            ) : null}
          </div>
          <ConsoleNav sandbox={isSandbox()} pendingApprovals={waitingLabel(await pendingCount(actor))} />
          <div className="mt-3 border-t border-slate-200 pt-3 text-sm">
            <p className="break-all text-slate-800">{actor.email}</p>
            <p className="text-slate-700">Role: {actor.role}</p>
            <form action={signOutAction} className="mt-2">
              <button type="submit" className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100">
                Sign out
              </button>
            </form>
          </div>
        </aside>
        <main className="min-w-0 flex-1 p-4 lg:p-8">
          <SearchBox />
          {children}
        </main>
      </div>
    </QueryProvider>
  );
}
