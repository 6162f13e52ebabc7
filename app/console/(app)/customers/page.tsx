import Link from 'next/link';
import * as customers from '@/lib/customers/service';
import { shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Pager } from '@/components/pager';
import { Badge, Cell, Empty, ErrorNote, PageHeader, Section, Table } from '@/components/ui';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';

export const metadata = { title: 'Customers · Corridor console' };

const STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'];
type Search = Promise<Record<string, string | string[] | undefined>>;

function nameOf(c: Record<string, unknown>): string {
  const business = c.businessInfo as { legalName?: string } | undefined;
  return (c.fullName as string | undefined) ?? business?.legalName ?? '(no name)';
}

export default async function CustomersPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const q = param(sp.q);
  const status = STATUSES.includes(param(sp.status) ?? '') ? param(sp.status) : undefined;
  const type = ['INDIVIDUAL', 'BUSINESS'].includes(param(sp.type) ?? '') ? param(sp.type) : undefined;
  const cursor = param(sp.cursor, 512);
  const result = await readOrError(actor, () =>
    customers.list(actor.platformId, { search: q, verificationStatus: status, customerType: type }, 25, cursor),
  );
  return (
    <>
      <PageHeader title="Customers" description="Individuals (KYC) and businesses (KYB) of this platform." />
      <Section title="Find customers">
        <form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
          <div>
            <label htmlFor="q" className="block text-sm font-medium">
              Search
            </label>
            <input
              id="q"
              name="q"
              defaultValue={q}
              placeholder="Name, email, id or platform customer id"
              className="mt-1 w-full rounded border border-slate-400 px-2 py-1.5"
            />
          </div>
          <div>
            <label htmlFor="status" className="block text-sm font-medium">
              KYC/KYB status
            </label>
            <select
              id="status"
              name="status"
              defaultValue={status ?? ''}
              className="mt-1 w-full rounded border border-slate-400 px-2 py-1.5"
            >
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="type" className="block text-sm font-medium">
              Type
            </label>
            <select
              id="type"
              name="type"
              defaultValue={type ?? ''}
              className="mt-1 w-full rounded border border-slate-400 px-2 py-1.5"
            >
              <option value="">Any</option>
              <option value="INDIVIDUAL">Individual</option>
              <option value="BUSINESS">Business</option>
            </select>
          </div>
          <button type="submit" className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800">
            Apply
          </button>
        </form>
      </Section>
      {!result.ok ? (
        <ErrorNote>{result.error}</ErrorNote>
      ) : result.value.data.length ? (
        <Section title="Results">
          <Table caption="Customers" head={['Name', 'Type', 'Email', 'Status', 'Platform id', 'Created']}>
            {result.value.data.map((c) => (
              <tr key={c.id}>
                <Cell>
                  <Link className="text-blue-800 underline" href={`/console/customers/${encodeURIComponent(c.id)}`}>
                    {nameOf(c)}
                  </Link>
                  <span className="block font-mono text-xs text-slate-700">{shortId(c.id)}</span>
                </Cell>
                <Cell>{c.customerType}</Cell>
                <Cell>{c.email ?? '—'}</Cell>
                <Cell>
                  <Badge status={'kycStatus' in c ? c.kycStatus : c.kybStatus} />
                </Cell>
                <Cell>{c.platformCustomerId}</Cell>
                <Cell>
                  <LocalTime value={c.createdAt} />
                </Cell>
              </tr>
            ))}
          </Table>
          <Pager
            path="/console/customers"
            params={{ q, status, type }}
            nextCursor={result.value.nextCursor}
            hasCursor={Boolean(cursor)}
            shown={result.value.data.length}
            total={result.value.totalCount}
          />
        </Section>
      ) : (
        <Empty>{q || status || type ? 'No customer matches these filters.' : 'No customers yet.'}</Empty>
      )}
    </>
  );
}
