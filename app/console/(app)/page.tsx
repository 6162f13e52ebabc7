import Link from 'next/link';
import { now } from '@/lib/core/clock';
import * as transactions from '@/lib/payments/transactions/service';
import * as verifications from '@/lib/verifications/service';
import { completedVolumesSince, countAwaitingApproval } from '@/lib/payments/transactions/volume-repository';
import { totalsByCurrency } from '@/lib/ledger/reports';
import { countFailed } from '@/lib/webhooks/log';
import { formatAmount, shortId } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Cell, Empty, PageHeader, Section, Table } from '@/components/ui';
import { sentOf, transactionHref } from '@/components/console/tables';
import { pendingCount } from '../_lib/approvals';
import { countLabel } from '../_lib/counts';
import { requireStaff } from '../_lib/session';
import { read } from '../_lib/read';

export const metadata = { title: 'Overview · Corridor console' };

type Totals = Awaited<ReturnType<typeof totalsByCurrency>>;
type Volumes = Awaited<ReturnType<typeof completedVolumesSince>>;
type Reviews = Awaited<ReturnType<typeof verifications.list>>['data'];
type Recent = Awaited<ReturnType<typeof transactions.list>>['data'];

function Stat({ label, value, href }: { label: string; value: number | string; href: string }) {
  return (
    <Link
      href={href}
      className="block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-slate-400"
    >
      <span className="block text-sm text-slate-700">{label}</span>
      <span className="mt-1 block text-3xl font-semibold">{value}</span>
    </Link>
  );
}

function Balances({ totals }: { totals: Totals }) {
  return (
    <Section title="Balances per currency">
      {totals.length ? (
        <Table
          caption="Balances per currency"
          head={['Currency', 'Available', 'In flight (held)', 'Incoming (pending)']}
        >
          {totals.map((t) => (
            <tr key={t.currency}>
              <Cell>{t.currency}</Cell>
              <Cell>{formatAmount(t.available, t.currency)}</Cell>
              <Cell>{formatAmount(t.held, t.currency)}</Cell>
              <Cell>{formatAmount(t.pending, t.currency)}</Cell>
            </tr>
          ))}
        </Table>
      ) : (
        <Empty>No internal accounts yet.</Empty>
      )}
    </Section>
  );
}

function CompletedVolume({ volumes }: { volumes: Volumes }) {
  return (
    <Section title="Completed volume, last 30 days (UTC)">
      {volumes.length ? (
        <Table caption="Completed volume per currency" head={['Currency', 'Payments', 'Sent']}>
          {volumes.map((v) => (
            <tr key={v.currency}>
              <Cell>{v.currency}</Cell>
              <Cell>{v.count}</Cell>
              <Cell>{formatAmount(v.amount, v.currency)}</Cell>
            </tr>
          ))}
        </Table>
      ) : (
        <Empty>No completed payments in the last 30 days.</Empty>
      )}
    </Section>
  );
}

function WaitingForReview({ reviews }: { reviews: Reviews }) {
  return (
    <Section title="Waiting for review">
      {reviews.length ? (
        <ul className="divide-y divide-slate-100 text-sm">
          {reviews.map((v) => (
            <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <Link className="text-blue-800 underline" href={`/console/customers/${encodeURIComponent(v.customerId)}`}>
                {shortId(v.customerId)}
              </Link>
              <span className="text-slate-700">
                submitted <LocalTime value={v.updatedAt} />
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <Empty>No verification is waiting for a manual review.</Empty>
      )}
    </Section>
  );
}

function LatestTransactions({ recent }: { recent: Recent }) {
  return (
    <Section
      title="Latest transactions"
      actions={
        <Link className="text-sm text-blue-800 underline" href="/console/transactions">
          All transactions
        </Link>
      }
    >
      {recent.length ? (
        <Table caption="Latest transactions" head={['Transaction', 'Status', 'Amount', 'Created']}>
          {recent.map((t) => (
            <tr key={t.id}>
              <Cell mono>
                <Link className="text-blue-800 underline" href={transactionHref(t)}>
                  {shortId(t.id)}
                </Link>
              </Cell>
              <Cell>
                <Badge status={t.status} />
              </Cell>
              <Cell>{sentOf(t) ? formatAmount(sentOf(t)!.amount, sentOf(t)!.currency.code) : '—'}</Cell>
              <Cell>
                <LocalTime value={t.createdAt} />
              </Cell>
            </tr>
          ))}
        </Table>
      ) : (
        <Empty>No transactions yet.</Empty>
      )}
    </Section>
  );
}

export default async function Overview() {
  const actor = await requireStaff();
  const p = actor.platformId;
  const data = await read(actor, async () => {
    // Today and the 29 UTC days before it: the totals are kept per day.
    const since = new Date(now().getTime() - 29 * 86400_000);
    const [totals, volumes, awaiting, failed, reviews, recent] = await Promise.all([
      totalsByCurrency(p),
      completedVolumesSince(p, since),
      countAwaitingApproval(p),
      countFailed(p),
      verifications.list(p, { status: 'PENDING_MANUAL_REVIEW' }, 5),
      transactions.list(p, {}, 5, 'desc'),
    ]);
    return { totals, volumes, awaiting, failed, reviews, recent };
  });
  const actions = await pendingCount(actor);
  return (
    <>
      <PageHeader title="Overview" description="What the platform holds and moved, and what waits for someone." />
      <div className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Stat label="Agent actions to approve" value={countLabel(actions)} href="/console/approvals" />
        <Stat label="Payments awaiting approval" value={data.awaiting} href="/console/transactions?status=PENDING" />
        <Stat
          label="Verifications to review"
          value={countLabel(data.reviews.totalCount)}
          href="/console/customers?status=PENDING"
        />
        <Stat label="Failed webhooks" value={data.failed} href="/console/webhooks?status=FAILED" />
      </div>
      <Balances totals={data.totals} />
      <CompletedVolume volumes={data.volumes} />
      <WaitingForReview reviews={data.reviews.data} />
      <LatestTransactions recent={data.recent.data} />
    </>
  );
}
