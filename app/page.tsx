import Link from 'next/link';
import { API_BASE, isSandbox } from '@/lib/core/mode';

export const metadata = { title: 'Corridor · self-hostable payments service' };

function Entry({ href, title, children }: { href: string; title: string; children: React.ReactNode }) {
  return (
    <li>
      <Link
        href={href}
        className="block h-full rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-blue-500"
      >
        <span className="block text-lg font-semibold text-blue-800">{title}</span>
        <span className="mt-1 block text-sm text-slate-700">{children}</span>
      </Link>
    </li>
  );
}

// The entry page: what Corridor is, and where each of its parts lives.
export default function Home() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <h1 className="text-3xl font-semibold">Corridor</h1>
      <p className="mt-3 max-w-2xl text-slate-800">
        A self-hostable global payments service: customers with KYC and KYB, internal and external accounts, transfers
        and cross-currency payments to bank accounts and UMA addresses, embedded wallets with passkeys and signed
        requests, and webhooks — one server, interface version 2025-10-13
        {isSandbox() ? ', running in sandbox mode (simulated banks and magic test values)' : ''}.
      </p>
      <ul className="mt-8 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Entry href="/console" title="Admin console">
          For platform staff: customers and their reviews, transactions with their ledger postings, webhook deliveries,
          API tokens and configuration.
        </Entry>
        <Entry href="/wallet" title="Wallet">
          For customers: sign in with an email code or a passkey, see balances and payments, send money signed in the
          browser.
        </Entry>
        <Entry href="/docs" title="API reference">
          Every operation of the API, its fields and its errors, rendered from the served OpenAPI document.
        </Entry>
        <Entry href={`${API_BASE}/openapi.json`} title="OpenAPI document">
          The machine-readable description at <code className="break-all">{API_BASE}/openapi.json</code>, for client
          generators and tests.
        </Entry>
      </ul>
      <h2 className="mt-10 text-xl font-semibold">Calling the API</h2>
      <p className="mt-2 text-slate-800">
        Authenticate with HTTP Basic using the client id and secret printed when the server first started:
      </p>
      {/* Focusable: on a phone the command scrolls sideways inside its box, and keyboard users must be able to scroll it too. */}
      <pre
        tabIndex={0}
        aria-label="Example request"
        className="mt-2 overflow-x-auto rounded bg-slate-900 p-4 text-sm text-slate-100"
      >
        <code>{`curl -u "$CLIENT_ID:$CLIENT_SECRET" <this server>${API_BASE}/config`}</code>
      </pre>
    </main>
  );
}
