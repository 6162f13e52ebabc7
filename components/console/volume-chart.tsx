import type { DailyVolume } from '@/lib/payments/transactions/volume-repository';
import { formatAmount } from '../format';

// The overview's daily completed volume: one small bar chart per currency (amounts of different
// currencies share no axis), drawn as SVG on the server. The SVG scales to its column (390 px
// included); its label says the total and the busiest day, and the figures of every day are in a
// table beneath for screen readers and for anyone who wants the numbers.
const W = 300;
const H = 80;

function Bars({ v }: { v: DailyVolume }) {
  const max = v.days.reduce((m, d) => (d.amount > m ? d.amount : m), 0n);
  const step = W / v.days.length;
  const total = v.days.reduce((s, d) => s + d.amount, 0n);
  const busiest = v.days.reduce((b, d) => (d.amount > b.amount ? d : b), v.days[0]);
  const label =
    `Completed ${v.currency} volume per day, ${v.days[0].day} to ${v.days[v.days.length - 1].day}: ` +
    `${formatAmount(total, v.currency)} in all, most on ${busiest.day} (${formatAmount(busiest.amount, v.currency)}).`;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-24 w-full" role="img" aria-label={label} preserveAspectRatio="none">
      <line x1={0} y1={H - 0.5} x2={W} y2={H - 0.5} stroke="#94a3b8" strokeWidth={1} />
      {v.days.map((d, i) => {
        // Heights in whole-number ratio of the bigint amounts; a non-zero day is at least 1 unit tall.
        const h = max > 0n && d.amount > 0n ? Math.max(1, Number((d.amount * BigInt(H - 2)) / max)) : 0;
        return (
          <rect key={d.day} x={i * step + step * 0.15} y={H - 1 - h} width={step * 0.7} height={h} fill="#1d4ed8">
            <title>{`${d.day}: ${formatAmount(d.amount, v.currency)} (${d.count})`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

export function VolumeChart({ series }: { series: DailyVolume[] }) {
  if (!series.length) return <p className="text-sm text-slate-700">No completed payments in the last 30 days.</p>;
  return (
    <div className="space-y-4">
      {series.map((v) => (
        <figure key={v.currency} className="min-w-0">
          <figcaption className="text-sm font-medium">{v.currency} per day (UTC)</figcaption>
          <Bars v={v} />
          <div className="flex justify-between text-xs text-slate-700">
            <span>{v.days[0].day}</span>
            <span>{v.days[v.days.length - 1].day}</span>
          </div>
          <details className="mt-1 text-sm">
            <summary className="cursor-pointer text-blue-800 underline">Figures per day ({v.currency})</summary>
            <div className="overflow-x-auto">
              <table className="mt-2 w-full text-left text-sm">
                <caption className="sr-only">Completed {v.currency} volume per day</caption>
                <thead>
                  <tr>
                    <th scope="col" className="pr-4">
                      Day
                    </th>
                    <th scope="col" className="pr-4">
                      Payments
                    </th>
                    <th scope="col">Sent</th>
                  </tr>
                </thead>
                <tbody>
                  {v.days.map((d) => (
                    <tr key={d.day}>
                      <td className="pr-4">{d.day}</td>
                      <td className="pr-4">{d.count}</td>
                      <td className="whitespace-nowrap">{formatAmount(d.amount, v.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </figure>
      ))}
    </div>
  );
}
