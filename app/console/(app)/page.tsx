import Link from 'next/link';
import { now } from '@/lib/core/clock';
import * as transactions from '@/lib/payments/transactions/service';
import * as verifications from '@/lib/verifications/service';
import { completedVolumesSince, dailyCompletedVolumes } from '@/lib/payments/transactions/volume-repository';
import { VolumeChart } from '@/components/console/volume-chart';
import { totalsByCurrency } from '@/lib/ledger/reports';
import { formatAmount } from '@/components/format';
import { LocalTime } from '@/components/time';
import { Badge, Cell, Empty, PageHeader, Section, Table } from '@/components/ui';
import { sentOf, transactionHref, transactionTitle } from '@/components/console/tables';
import { namesOf, type Named } from '@/lib/staff/names';
import { db } from '@/lib/core/db';
import { OverviewCounters } from '@/components/console/live';
import { NamedRef } from '@/components/console/named';
import { CopyId } from '@/components/console/copy-id';
import { liveSnapshot } from '../_lib/live';
import { requireStaff } from '../_lib/session';
import { read } from '../_lib/read';

export const metadata = { title: 'Overview · Corridor console' };

type Totals = Awaited<ReturnType<typeof totalsByCurrency>>;
type Volumes = Awaited<ReturnType<typeof completedVolumesSince>>;
type Daily = Awaited<ReturnType<typeof dailyCompletedVolumes>>;
type Reviews = Awaited<ReturnType<typeof verifications.list>>['data'];
type Recent = Awaited<ReturnType<typeof transactions.list>>['data'];

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

function CompletedVolume({ volumes, daily }: { volumes: Volumes; daily: Daily }) {
  return (
    <Section title="Completed volume, last 30 days (UTC)">
      <VolumeChart series={daily} />
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
      ) : null}
    </Section>
  );
}

function WaitingForReview({ reviews, names }: { reviews: Reviews; names: Map<string, Named> }) {
  return (
    <Section title="Waiting for review">
      {reviews.length ? (
        <ul className="divide-y divide-slate-100 text-sm">
          {reviews.map((v) => (
            <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <NamedRef
                id={v.customerId}
                names={names}
                href={`/console/customers/${encodeURIComponent(v.customerId)}`}
              />
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

function LatestTransactions({ recent, names }: { recent: Recent; names: Map<string, Named> }) {
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
        <Table caption="Latest transactions" head={['Transaction', 'Customer', 'Status', 'Amount', 'Created']}>
          {recent.map((t) => (
            <tr key={t.id}>
              <Cell>
                <Link className="text-blue-800 underline" href={transactionHref(t)}>
                  {transactionTitle(t)}
                </Link>
                <span className="block">
                  <CopyId id={t.id} />
                </span>
              </Cell>
              <Cell>
                <NamedRef id={t.customerId} names={names} />
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
    const [totals, volumes, daily, reviews, recent] = await Promise.all([
      totalsByCurrency(p),
      completedVolumesSince(p, since),
      dailyCompletedVolumes(p, now(), 30),
      verifications.list(p, { status: 'PENDING_MANUAL_REVIEW' }, 5),
      transactions.list(p, {}, 5, 'desc'),
    ]);
    const names = await namesOf(
      p,
      [...reviews.data.map((v) => v.customerId), ...recent.data.map((t) => t.customerId)],
      db(),
    );
    return { totals, volumes, daily, reviews, recent, names };
  });
  const live = await liveSnapshot(actor, true);
  return (
    <>
      <PageHeader title="Overview" description="What the platform holds and moved, and what waits for someone." />
      <OverviewCounters initial={live} />
      <Balances totals={data.totals} />
      <CompletedVolume volumes={data.volumes} daily={data.daily} />
      <WaitingForReview reviews={data.reviews.data} names={data.names} />
      <LatestTransactions recent={data.recent.data} names={data.names} />
    </>
  );
}
