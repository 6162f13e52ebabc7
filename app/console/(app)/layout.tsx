import Link from 'next/link';
import type { ReactNode } from 'react';
import { isSandbox } from '@/lib/core/mode';
import { QueryProvider } from '@/components/query-provider';
import { ConsoleFrame } from '@/components/console/nav';
import { SearchBox } from '@/components/console/search-box';
import { requireStaff } from '../_lib/session';
import { signOutAction } from '../_lib/actions';
import { liveSnapshot } from '../_lib/live';

export const metadata = { title: 'Corridor console' };

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const actor = await requireStaff();
  // The first figures come with the page; the frame's react-query poll keeps them live after.
  const live = await liveSnapshot(actor, false);
  return (
    <QueryProvider>
      <ConsoleFrame
        sandbox={isSandbox()}
        initial={live}
        account={
          <div className="mt-3 border-t border-slate-200 pt-3 text-sm">
            <p className="break-all text-slate-800">{actor.email}</p>
            <p className="text-slate-700">Role: {actor.role}</p>
            <p>
              <Link href="/console/account" className="underline">
                Your account
              </Link>
            </p>
            <form action={signOutAction} className="mt-2">
              <button type="submit" className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100">
                Sign out
              </button>
            </form>
          </div>
        }
      >
        <SearchBox />
        {children}
      </ConsoleFrame>
    </QueryProvider>
  );
}
