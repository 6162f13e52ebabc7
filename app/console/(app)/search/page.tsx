import Link from 'next/link';
import { search, type SearchAnswer } from '@/lib/search/service';
import { formatAmount, shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Empty, PageHeader, Section } from '@/components/ui';
import { requireStaff } from '../../_lib/session';
import { param, read } from '../../_lib/read';

export const metadata = { title: 'Search · Corridor console' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const link = 'text-blue-800 underline';
const row = 'flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2';

const customerHref = (id: string) => `/console/customers/${encodeURIComponent(id)}`;

/** Where an object found by its id is shown: its own page, or its owner's. */
function objectHref(o: SearchAnswer['objects'][number]): string | null {
  const own = (base: string) => `/console/${base}/${encodeURIComponent(o.id)}`;
  if (o.kind === 'Customer') return own('customers');
  if (o.kind === 'Transaction') return own('transactions');
  if (o.kind === 'Card') return own('cards');
  if (o.kind === 'Agent') return own('agents');
  if (o.kind === 'CardTransaction' && o.cardId) return `/console/cards/${encodeURIComponent(o.cardId)}`;
  if (o.kind === 'AgentAction' && o.status === 'PENDING') return '/console/approvals';
  return o.customerId ? customerHref(o.customerId) : null;
}

function Owner({ id, name }: { id: string | null; name: string | null }) {
  if (!id) return null;
  return (
    <span className="text-slate-700">
      of{' '}
      <Link className={link} href={customerHref(id)}>
        {name ?? shortId(id)}
      </Link>
    </span>
  );
}

function nameOf(c: Record<string, unknown>): string {
  const business = c.businessInfo as { legalName?: string } | undefined;
  return (c.fullName as string | undefined) ?? business?.legalName ?? '(no name)';
}

function Customers({ a }: { a: SearchAnswer }) {
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {a.customers.map((c) => (
        <li key={c.id} className={row}>
          <span className="min-w-0 break-words">
            <Link className={`${link} font-medium`} href={customerHref(c.id)}>
              {nameOf(c)}
            </Link>{' '}
            <span className="text-slate-700">
              {c.customerType.toLowerCase()} · {c.email ?? 'no email'} · {c.platformCustomerId}
            </span>
          </span>
          <Badge status={'kycStatus' in c ? c.kycStatus : c.kybStatus} />
        </li>
      ))}
      {a.moreCustomers ? (
        <li className="py-2">
          <Link className={link} href={`/console/customers?q=${encodeURIComponent(a.query)}`}>
            All customers matching “{a.query}”
          </Link>
        </li>
      ) : null}
    </ul>
  );
}

function Objects({ a }: { a: SearchAnswer }) {
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {a.objects.map((o) => {
        const href = objectHref(o);
        return (
          <li key={o.id} className={row}>
            <span className="min-w-0 break-all">
              <span className="font-medium">{o.kind}</span>{' '}
              {href ? (
                <Link className={`${link} font-mono text-xs`} href={href}>
                  {o.id}
                </Link>
              ) : (
                <span className="font-mono text-xs">{o.id}</span>
              )}{' '}
              <Owner id={o.customerId} name={o.customerName} />
            </span>
            {o.status ? <Badge status={o.status} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

function Cards({ a }: { a: SearchAnswer }) {
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {a.cards.map((c) => (
        <li key={c.id} className={row}>
          <span className="min-w-0 break-words">
            <Link className={`${link} font-medium`} href={`/console/cards/${encodeURIComponent(c.id)}`}>
              {c.brand} •••• {c.last4}
            </Link>{' '}
            <Owner id={c.cardholderId} name={c.customerName} />
          </span>
          <Badge status={c.state} />
        </li>
      ))}
    </ul>
  );
}

function Transactions({ a }: { a: SearchAnswer }) {
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {a.transactions.map((t) => (
        <li key={t.id} className={row}>
          <span className="min-w-0 break-words">
            <Link className={`${link} font-medium`} href={`/console/transactions/${encodeURIComponent(t.id)}`}>
              {formatAmount(t.sentAmount, t.sentCurrency)}
              {t.receivedCurrency && t.receivedCurrency !== t.sentCurrency
                ? ` → ${formatAmount(t.receivedAmount, t.receivedCurrency)}`
                : ''}
            </Link>{' '}
            <span className="text-slate-700">
              {t.type.toLowerCase()}
              {t.description ? ` · ${t.description}` : ''} · reference {t.reference ?? '—'} ·{' '}
              <LocalTime value={t.createdAt} /> · matched by {t.matched}
            </span>{' '}
            <Owner id={t.customerId} name={t.customerName} />
          </span>
          <Badge status={t.status} />
        </li>
      ))}
    </ul>
  );
}

export default async function SearchPage({ searchParams }: { searchParams: Search }) {
  const actor = await requireStaff();
  const q = param((await searchParams).q)?.trim() ?? '';
  if (!q)
    return (
      <>
        <PageHeader title="Search" />
        <Empty>
          Type a customer’s name or any word of it, an email or part of it, a business name, a platform customer id, any
          object id, a card’s last four digits, a transaction reference or an amount (“1,000.00” or “1,000.00 USD”).
        </Empty>
      </>
    );
  const a = await read(actor, () => search(actor.platformId, q));
  const found = a.customers.length + a.objects.length + a.cards.length + a.transactions.length;
  return (
    <>
      <PageHeader title={`Search: “${q}”`} />
      {!found ? <Empty>Nothing matches “{q}”.</Empty> : null}
      {a.objects.length ? (
        <Section title="By id">
          <Objects a={a} />
        </Section>
      ) : null}
      {a.customers.length ? (
        <Section title="Customers">
          <Customers a={a} />
        </Section>
      ) : null}
      {a.cards.length ? (
        <Section title="Cards by last four">
          <Cards a={a} />
        </Section>
      ) : null}
      {a.transactions.length ? (
        <Section title="Transactions">
          <Transactions a={a} />
        </Section>
      ) : null}
    </>
  );
}
