import { beforeAll, expect, it } from 'vitest';
import { feeSchedule } from '@/lib/fx/fees';
import { exchangeRateOf, price } from '@/lib/fx/pricing';
import { midRate, minorRate, RATE_WINDOW_MS } from '@/lib/fx/rates';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { rateCacheStats } from './service';
import { pair, placeClock } from './testing';
import { db } from '@/lib/core/db';

// The operation under test: GET /exchange-rates (exchange-rates-list.test.ts has the listing).
let p: TestPlatform;
let at: Date;
beforeAll(async () => {
  p = await newPlatform();
  // Two minutes into a window: the rest of the file runs well inside it.
  at = await placeClock(p, 10, 120_000);
});

it('reflects the platform fee config in fees.total and the receiving amount at once', async () => {
  const before = await listedPair('USD', 'EUR');
  const set = await p.api.patch('/config', {
    feeConfigs: [
      {
        feeType: 'CROSS_CURRENCY_TRANSACTION',
        sourceCurrency: 'USD',
        variableFeeBps: 50,
        fixedFee: { amount: 25, currency: 'USD' },
      },
    ],
  });
  expect(set.status, set.text).toBe(200);
  try {
    const after = await listedPair('USD', 'EUR');
    // Platform fee on 10000: 25 fixed + 50 bps = 75.
    expect(after.fees.total - before.fees.total).toBe(75);
    expect(after.fees.fixed - before.fees.fixed).toBe(25);
    expect(after.receivingAmount).toBeLessThan(before.receivingAmount);
    const fees = await feeSchedule({ platformId: p.platformId, from: 'USD', at }, db());
    expect(fees.platformFixed).toBe(25n);
    const priced = price({
      from: 'USD',
      to: 'EUR',
      rate: midRate('USD', 'EUR', at).rate,
      side: 'SENDING',
      amount: 10000n,
      fees,
    });
    expect(BigInt(after.receivingAmount)).toBe(priced.totalReceiving);
    expect(BigInt(after.fees.total)).toBe(priced.serviceFee + priced.platformFee);
    // Platform fee configs apply to USD sources only (reference: FeeConfig.sourceCurrency).
    const eur = await listedPair('EUR', 'USD');
    expect(eur.fees.fixed).toBe(
      Number((await feeSchedule({ platformId: p.platformId, from: 'EUR', at }, db())).serviceFixed),
    );
  } finally {
    await p.api.patch('/config', {
      feeConfigs: [
        {
          feeType: 'CROSS_CURRENCY_TRANSACTION',
          sourceCurrency: 'USD',
          variableFeeBps: 0,
          fixedFee: { amount: 0, currency: 'USD' },
        },
      ],
    });
  }
});

/** A supportedCurrencies entry of PATCH /config with these limits. */
const supported = (currencyCode: string, minAmount: number, maxAmount: number) => ({
  currencyCode,
  minAmount,
  maxAmount,
  requiredCounterpartyFields: [],
  enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
});
const listedPair = async (from: string, to: string, on: TestPlatform = p) =>
  pair(
    (await on.api.get('/exchange-rates', { query: { sourceCurrency: from, destinationCurrency: to } })).body.data,
    from,
    to,
  );

it('takes limits from the platform currency config, else sensible defaults', async () => {
  const set = await p.api.patch('/config', {
    supportedCurrencies: [supported('USD', 500, 2500000), supported('EUR', 1, 5000000)],
  });
  expect(set.status, set.text).toBe(200);
  const usd = await listedPair('USD', 'MXN');
  expect([usd.minSendingAmount, usd.maxSendingAmount]).toEqual([500, 2500000]);

  // GBP is not configured: min is the least amount that still delivers one unit after fees,
  // max is USD 1,000,000 worth at the window's mid rate.
  const gbp = await listedPair('GBP', 'MXN');
  const fees = await feeSchedule({ platformId: p.platformId, from: 'GBP', at }, db());
  const rate = midRate('GBP', 'MXN', at).rate;
  const min = price({ from: 'GBP', to: 'MXN', rate, side: 'RECEIVING', amount: 1n, fees }).totalSending;
  expect(BigInt(gbp.minSendingAmount)).toBe(min);
  expect(() => price({ from: 'GBP', to: 'MXN', rate, side: 'SENDING', amount: min - 1n, fees })).toThrow(/too small/);
  const r = minorRate('USD', 'GBP', midRate('USD', 'GBP', at).rate);
  expect(BigInt(gbp.maxSendingAmount)).toBe((100_000_000n * r.num) / r.den);

  // A configured minimum below what the fees leave room for: the fee floor is listed, as a quote
  // below it is refused anyway.
  const low = await p.api.patch('/config', {
    supportedCurrencies: [supported('USD', 1, 2500000), supported('EUR', 1, 5000000)],
  });
  expect(low.status, low.text).toBe(200);
  const usdLow = await listedPair('USD', 'EUR');
  const usdFees = await feeSchedule({ platformId: p.platformId, from: 'USD', at }, db());
  const floor = price({
    from: 'USD',
    to: 'EUR',
    rate: midRate('USD', 'EUR', at).rate,
    side: 'RECEIVING',
    amount: 1n,
    fees: usdFees,
  }).totalSending;
  expect(floor).toBeGreaterThan(1n);
  expect(BigInt(usdLow.minSendingAmount)).toBe(floor);
});

it('enforces the listed maximum of a currency the platform has not configured', async () => {
  // USDT is no currency of the platform's config: it can only be sent by real-time funding.
  const p = await newPlatform();
  const usdt = await listedPair('USDT', 'EUR', p);
  const max = BigInt(usdt.maxSendingAmount);
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Tess Tether',
    currencies: ['EUR'],
  });
  expect(c.status, c.text).toBe(201);
  const eur = (
    (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body.data as {
      id: string;
      balance: { currency: { code: string } };
    }[]
  ).find((a) => a.balance.currency.code === 'EUR')!.id;
  const quote = (amount: bigint) =>
    p.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USDT', cryptoNetwork: 'TRON', customerId: c.body.id },
      destination: { destinationType: 'ACCOUNT', accountId: eur },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    });
  expectError(await quote(max + 1n), 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
  const ok = await quote(max);
  expect(ok.status, ok.text).toBe(201);
});

it('echoes the sending amount; an amount the fees consume delivers nothing', async () => {
  const big = await p.api.get('/exchange-rates', {
    query: { sourceCurrency: 'USD', destinationCurrency: 'MXN', sendingAmount: '9007199254740993' },
  });
  expect(big.status, big.text).toBe(200);
  expect(big.text).toContain('"sendingAmount":9007199254740993');
  const tiny = pair(
    (
      await p.api.get('/exchange-rates', {
        query: { sourceCurrency: 'USD', destinationCurrency: 'EUR', sendingAmount: 5 },
      })
    ).body.data,
    'USD',
    'EUR',
  );
  expect(tiny).toMatchObject({ sendingAmount: 5, receivingAmount: 0, fees: { fixed: 10, total: 10 } });
  const zero = pair(
    (
      await p.api.get('/exchange-rates', {
        query: { sourceCurrency: 'USD', destinationCurrency: 'EUR', sendingAmount: 0 },
      })
    ).body.data,
    'USD',
    'EUR',
  );
  expect(zero).toMatchObject({ sendingAmount: 0, receivingAmount: 0 });
  expect(zero.exchangeRate).toBe(exchangeRateOf(midRate('USD', 'EUR', at).rate));
});

it('keeps a rate for its five-minute window and moves it in the next; repeats are served from the cache', async () => {
  const q = { query: { sourceCurrency: 'USD', destinationCurrency: 'MXN' } };
  const start = await placeClock(p, 20, 10_000);
  const first = pair((await p.api.get('/exchange-rates', q)).body.data, 'USD', 'MXN');
  expect(first.updatedAt).toBe(new Date(start.getTime() - 10_000).toISOString());

  const before = rateCacheStats();
  await placeClock(p, 20, 250_000); // four minutes later, same window
  const again = pair((await p.api.get('/exchange-rates', q)).body.data, 'USD', 'MXN');
  expect(again).toEqual(first);
  const repeat = rateCacheStats();
  expect(repeat.misses).toBe(before.misses);
  expect(repeat.hits).toBe(before.hits + 1);

  await placeClock(p, 21, 10_000); // the next window
  const next = pair((await p.api.get('/exchange-rates', q)).body.data, 'USD', 'MXN');
  expect(next.updatedAt).toBe(new Date(new Date(first.updatedAt).getTime() + RATE_WINDOW_MS).toISOString());
  expect(next.exchangeRate).not.toBe(first.exchangeRate);
  expect(next.receivingAmount).not.toBe(first.receivingAmount);
  expect(rateCacheStats().misses).toBe(before.misses + 1);
  at = await placeClock(p, 10, 120_000);
});

it('refuses unknown currency codes with INVALID_CURRENCY and bad amounts with INVALID_INPUT', async () => {
  const src = await p.api.get('/exchange-rates', { query: { sourceCurrency: 'XYZ' } });
  expectError(src, 400, 'INVALID_CURRENCY');
  expect(src.body.details.errors[0]).toMatchObject({ field: 'sourceCurrency' });
  const dest = await p.api.get(
    '/exchange-rates?destinationCurrency=EUR&destinationCurrency=EURO&destinationCurrency=ARS',
  );
  expectError(dest, 400, 'INVALID_CURRENCY');
  expect(dest.body.details.errors.map((e: { message: string }) => e.message.split(' ')[0])).toEqual(['EURO', 'ARS']);
  for (const sendingAmount of ['abc', '-5', '1.5', '99999999999999999999']) {
    expectError(await p.api.get('/exchange-rates', { query: { sendingAmount } }), 400, 'INVALID_INPUT');
  }
});

it('needs the VIEW permission and credentials', async () => {
  const viewer = await p.withPermissions('VIEW');
  expect((await viewer.get('/exchange-rates', { query: { sourceCurrency: 'USD' } })).status).toBe(200);
  const transactOnly = await p.withPermissions('TRANSACT');
  expectError(await transactOnly.get('/exchange-rates'), 403, 'FORBIDDEN');
  expectError(await p.api.get('/exchange-rates', { authorization: null }), 401, 'UNAUTHORIZED');
});
