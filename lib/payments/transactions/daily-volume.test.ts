import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { newPlatform } from '@/tests/support/api';
import { dailyCompletedVolumes, dailySeries } from './volume-repository';

// The overview's chart reads completed volume per day and currency from the running totals
// (`completed:<day>:<currency>`, kept by a trigger on transactions), folded or not yet folded.
const last = new Date('2026-11-28T15:00:00Z');

it('lays the totals out per currency over the window, zero on quiet days, oldest first', () => {
  const totals = new Map([
    ['completed:2026-11-28:USD', { n: 2n, amount: 1500n }],
    ['completed:2026-11-26:USD', { n: 1n, amount: 99n }],
    ['completed:2026-11-27:EUR', { n: 1n, amount: 700n }],
    ['completed:2026-11-20:GBP', { n: 1n, amount: 5n }], // before the window
    ['completed:2026-11-27:MXN', { n: 0n, amount: 0n }], // completed, then taken back
  ]);
  const series = dailySeries(totals, last, 3);
  expect(series).toEqual([
    {
      currency: 'EUR',
      days: [
        { day: '2026-11-26', count: 0, amount: 0n },
        { day: '2026-11-27', count: 1, amount: 700n },
        { day: '2026-11-28', count: 0, amount: 0n },
      ],
    },
    {
      currency: 'USD',
      days: [
        { day: '2026-11-26', count: 1, amount: 99n },
        { day: '2026-11-27', count: 0, amount: 0n },
        { day: '2026-11-28', count: 2, amount: 1500n },
      ],
    },
  ]);
});

it('reads folded totals and unfolded changes of the platform alone, 30 days to the given day', async () => {
  const p = await newPlatform();
  const other = await newPlatform();
  await db().runningTotal.createMany({
    data: [
      { platformId: p.platformId, key: 'completed:2026-11-01:USD', n: 1n, amount: 1000n },
      { platformId: p.platformId, key: 'completed:2026-10-29:USD', n: 1n, amount: 555n }, // 31 days back
      { platformId: other.platformId, key: 'completed:2026-11-28:USD', n: 1n, amount: 9n },
    ],
  });
  await db().runningTotalChange.createMany({
    data: [
      { platformId: p.platformId, key: 'completed:2026-11-01:USD', n: 1n, amount: 250n },
      { platformId: p.platformId, key: 'completed:2026-11-28:USD', n: 3n, amount: 42n },
      { platformId: p.platformId, key: 'completed:2026-11-29:USD', n: 1n, amount: 7n }, // after the day
    ],
  });
  const [usd, ...rest] = await dailyCompletedVolumes(p.platformId, last, 30);
  expect(rest).toEqual([]);
  expect(usd.days).toHaveLength(30);
  expect(usd.days[0].day).toBe('2026-10-30');
  expect(usd.days.filter((d) => d.amount !== 0n)).toEqual([
    { day: '2026-11-01', count: 2, amount: 1250n },
    { day: '2026-11-28', count: 3, amount: 42n },
  ]);
});
