'use client';
import { useState, type ReactNode } from 'react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { LiveSnapshot } from '@/app/console/_lib/live';
import { HeldNotice, useLive } from './live';

const LINKS: [string, string][] = [
  ['/console/approvals', 'Approvals'],
  ['/console/agents', 'Agents'],
  ['/console', 'Overview'],
  ['/console/customers', 'Customers'],
  ['/console/transactions', 'Transactions'],
  ['/console/cards', 'Cards'],
  ['/console/webhooks', 'Webhooks'],
  ['/console/tokens', 'API tokens'],
  ['/console/settings', 'Configuration'],
  ['/console/sandbox', 'Sandbox'],
  ['/console/staff', 'Staff'],
  ['/console/audit', 'Audit log'],
];

function PendingBadge({ count }: { count: string | null }) {
  if (!count) return null;
  return (
    <span
      className="ml-2 rounded-full bg-amber-200 px-2 text-xs font-medium text-amber-950"
      data-testid="approvals-badge"
    >
      {count}
      <span className="sr-only"> pending</span>
    </span>
  );
}

/**
 * The console's frame: the navigation (a sidebar from 1024 px, a menu button below it — twelve
 * links do not fit a phone's width), the live approvals badge, and the notice of a newly held
 * action above every page. `account` is the signed-in user's block (rendered by the server).
 */
export function ConsoleFrame({
  sandbox,
  initial,
  account,
  children,
}: {
  sandbox: boolean;
  initial: LiveSnapshot;
  account: ReactNode;
  children: ReactNode;
}) {
  const path = usePathname();
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(path);
  // A followed link closes the menu (the frame stays mounted across pages).
  if (openedAt !== path) {
    setOpenedAt(path);
    setOpen(false);
  }
  const { data } = useLive(initial);
  const active = (href: string) => (href === '/console' ? path === href : path.startsWith(href));
  return (
    <div className="min-h-screen lg:flex">
      <aside className="border-b border-slate-200 bg-white p-3 lg:min-h-screen lg:w-56 lg:shrink-0 lg:border-r lg:border-b-0">
        <div className="flex items-center justify-between gap-2 lg:mb-3 lg:block">
          <div className="flex min-w-0 items-center gap-2 lg:block">
            <Link href="/console" className="text-lg font-semibold whitespace-nowrap">
              Corridor console
            </Link>
            {sandbox ? (
              <span className="rounded bg-amber-200 px-2 py-0.5 text-xs font-medium text-amber-950 lg:ml-2">
                Sandbox
              </span>
            ) : null}
          </div>
          {/* One label either way (aria-expanded tells open from closed): a longer one pushed the
              title into the Sandbox badge at 390 px. */}
          <button
            type="button"
            className="flex shrink-0 items-center rounded border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 lg:hidden"
            aria-expanded={open}
            aria-controls="console-menu"
            onClick={() => setOpen((o) => !o)}
          >
            Menu
            <PendingBadge count={data.approvals} />
          </button>
        </div>
        <div id="console-menu" className={`${open ? 'block' : 'hidden'} mt-3 lg:mt-0 lg:block`}>
          <nav aria-label="Console">
            <ul className="grid grid-cols-2 gap-1 sm:grid-cols-3 lg:flex lg:flex-col">
              {LINKS.filter(([href]) => sandbox || href !== '/console/sandbox').map(([href, label]) => (
                <li key={href} className="min-w-0">
                  <Link
                    href={href}
                    aria-current={active(href) ? 'page' : undefined}
                    className={`block rounded px-3 py-2 text-sm ${
                      active(href) ? 'bg-slate-900 font-medium text-white' : 'text-slate-800 hover:bg-slate-200'
                    }`}
                  >
                    {label}
                    {href === '/console/approvals' ? <PendingBadge count={data.approvals} /> : null}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {account}
        </div>
      </aside>
      <main className="min-w-0 flex-1 p-4 lg:p-8">
        <HeldNotice newest={data.newest} />
        {children}
      </main>
    </div>
  );
}
