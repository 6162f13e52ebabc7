import Link from 'next/link';
import * as customers from '@/lib/customers/service';
import { shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { FilterForm, PagedResults } from '@/components/console/list-page';
import { Badge, Cell, PageHeader, Table } from '@/components/ui';
import { requireStaff } from '../../_lib/session';
import { param, readOrError } from '../../_lib/read';
import { CUSTOMER_STATUSES, customerFilters, customerQuery } from '../../_lib/list-filters';
import { ExportLink } from '@/components/console/list-page';

export const metadata = { title: 'Customers · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;
type Customer = Awaited<ReturnType<typeof customers.list>>['data'][number];

function nameOf(c: Record<string, unknown>): string {
  const business = c.businessInfo as { legalName?: string } | undefined;
  return (c.fullName as string | undefined) ?? business?.legalName ?? '(no name)';
}

function CustomersTable({ rows }: { rows: Customer[] }) {
  return (
    <Table caption="Customers" head={['Name', 'Type', 'Email', 'Status', 'Platform id', 'Created']}>
      {rows.map((c) => (
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
  );
}

export default async function CustomersPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const sp = await searchParams;
  const filters = customerFilters(sp);
  const { q, status, type } = filters;
  const cursor = param(sp.cursor, 512);
  const result = await readOrError(actor, () => customers.list(actor.platformId, customerQuery(filters), 25, cursor));
  return (
    <>
      <PageHeader title="Customers" description="Individuals (KYC) and businesses (KYB) of this platform." />
      <FilterForm
        title="Find customers"
        className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
        fields={[
          { name: 'q', label: 'Search', value: q, placeholder: 'Name, email, id or platform customer id' },
          { name: 'status', label: 'KYC/KYB status', value: status, options: [...CUSTOMER_STATUSES] },
          {
            name: 'type',
            label: 'Type',
            value: type,
            options: [
              ['INDIVIDUAL', 'Individual'],
              ['BUSINESS', 'Business'],
            ],
          },
        ]}
      />
      <ExportLink list="customers" params={filters} />
      <PagedResults
        result={result}
        path="/console/customers"
        params={{ q, status, type }}
        cursor={cursor}
        noMatch="No customer matches these filters."
        none="No customers yet."
      >
        {(rows) => <CustomersTable rows={rows} />}
      </PagedResults>
    </>
  );
}
