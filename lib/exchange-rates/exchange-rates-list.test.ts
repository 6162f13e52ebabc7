import { beforeAll, expect, it } from 'vitest';
import { feeSchedule } from '@/lib/fx/fees';
import { price } from '@/lib/fx/pricing';
import { midRate, RATE_WINDOW_MS } from '@/lib/fx/rates';
import { defaultRail } from '@/lib/rails/catalog';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { ALL, pair, placeClock, type Rate } from './testing';
import { db } from '@/lib/core/db';

// The operation under test: GET /exchange-rates, its corridors, fees and filters.
let p: TestPlatform;
let at: Date;
beforeAll(async () => {
  p = await newPlatform();
  // Two minutes into a window: the rest of the file runs well inside it.
  at = await placeClock(p, 10, 120_000);
});

it('lists every corridor between every currency of the specification', async () => {
  const res = await p.api.get('/exchange-rates');
  expect(res.status, res.text).toBe(200);
  const list: Rate[] = res.body.data;
  expect(list).toHaveLength(ALL.length * (ALL.length - 1));
  expect(new Set(list.map((r) => r.sourceCurrency.code))).toEqual(new Set(ALL));
  expect(new Set(list.map((r) => r.destinationCurrency.code))).toEqual(new Set(ALL));
  expect(list.some((r) => r.sourceCurrency.code === r.destinationCurrency.code)).toBe(false);
  for (const r of list) {
    expect(r.sendingAmount).toBe(10000); // the reference's default
    expect(r.destinationPaymentRail).toBe(defaultRail(r.destinationCurrency.code).rail);
    expect(r.exchangeRate).toBeGreaterThan(0);
  }
  expect(pair(list, 'USD', 'INR').destinationPaymentRail).toBe('UPI');
  expect(pair(list, 'USD', 'KES').destinationPaymentRail).toBe('MOBILE_MONEY');
  expect(pair(list, 'GBP', 'EUR').destinationPaymentRail).toBe('SEPA_INSTANT');
  expect(pair(list, 'USD', 'BTC').destinationCurrency).toEqual({
    code: 'BTC',
    name: 'Bitcoin',
    symbol: '₿',
    decimals: 8,
  });
});

it('includes the fees exactly as price() computes them for the same amount and window', async () => {
  const res = await p.api.get('/exchange-rates', { query: { sourceCurrency: 'USD', sendingAmount: 123456 } });
  expect(res.status, res.text).toBe(200);
  const fees = await feeSchedule({ platformId: p.platformId, from: 'USD', at }, db());
  for (const to of ['EUR', 'MXN', 'INR', 'VND', 'BTC', 'USDC']) {
    const r = pair(res.body.data, 'USD', to);
    const snap = midRate('USD', to, at);
    const priced = price({ from: 'USD', to, rate: snap.rate, side: 'SENDING', amount: 123456n, fees });
    expect(r.sendingAmount).toBe(123456);
    expect(BigInt(r.receivingAmount)).toBe(priced.totalReceiving);
    expect(BigInt(r.fees.total)).toBe(priced.serviceFee + priced.platformFee);
    expect(BigInt(r.fees.fixed)).toBe(fees.serviceFixed + fees.platformFixed);
    expect(r.exchangeRate).toBe(priced.exchangeRate);
    expect(r.updatedAt).toBe(snap.updatedAt.toISOString());
    expect(new Date(r.updatedAt).getTime() % RATE_WINDOW_MS).toBe(0);
  }
  // The service's own fee: 10 cents + 25 bps of 123456 = 10 + 308.
  expect(pair(res.body.data, 'USD', 'EUR').fees).toEqual({ fixed: 10, total: 318 });
});

it('filters by source currency and by repeated destination currencies (codes case-insensitive)', async () => {
  const bySource = await p.api.get('/exchange-rates', { query: { sourceCurrency: 'GBP' } });
  expect(bySource.body.data).toHaveLength(ALL.length - 1);
  expect(new Set(bySource.body.data.map((r: Rate) => r.sourceCurrency.code))).toEqual(new Set(['GBP']));

  const both = await p.api.get(
    '/exchange-rates?sourceCurrency=usd&destinationCurrency=INR&destinationCurrency=GBP&destinationCurrency=INR',
  );
  expect(both.status, both.text).toBe(200);
  expect(both.body.data.map((r: Rate) => `${r.sourceCurrency.code}>${r.destinationCurrency.code}`).sort()).toEqual([
    'USD>GBP',
    'USD>INR',
  ]);

  const byDest = await p.api.get('/exchange-rates?destinationCurrency=XOF');
  expect(byDest.body.data).toHaveLength(ALL.length - 1);
  expect(new Set(byDest.body.data.map((r: Rate) => r.destinationCurrency.code))).toEqual(new Set(['XOF']));

  const same = await p.api.get('/exchange-rates', { query: { sourceCurrency: 'USD', destinationCurrency: 'USD' } });
  expect(same.body.data).toEqual([]);
});
