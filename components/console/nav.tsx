'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

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

// pendingApprovals: the count as text ("10,000+" past the list's count cap), absent when none wait.
export function ConsoleNav({ sandbox, pendingApprovals }: { sandbox: boolean; pendingApprovals?: string }) {
  const path = usePathname();
  const active = (href: string) => (href === '/console' ? path === href : path.startsWith(href));
  return (
    <nav aria-label="Console" className="overflow-x-auto">
      <ul className="flex gap-1 lg:flex-col">
        {LINKS.filter(([href]) => sandbox || href !== '/console/sandbox').map(([href, label]) => (
          <li key={href}>
            <Link
              href={href}
              aria-current={active(href) ? 'page' : undefined}
              className={`block rounded px-3 py-2 text-sm whitespace-nowrap ${
                active(href) ? 'bg-slate-900 font-medium text-white' : 'text-slate-800 hover:bg-slate-200'
              }`}
            >
              {label}
              {href === '/console/approvals' && pendingApprovals ? (
                <span className="ml-2 rounded-full bg-amber-200 px-2 text-xs font-medium text-amber-950">
                  {pendingApprovals}
                  <span className="sr-only"> pending</span>
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
