import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { portsFor, registerWork } from '@/lib/wiring';
import { createJobRegistry } from '@/lib/jobs/registry';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount } from '@/tests/support/money';
import { switchMode } from '@/tests/support/mode';
import { midRate, rateIn, ratesSource, ratesStatus, unconnectedRates, type RatesSource } from './rates';
import { httpRates, httpRatesFromEnv } from './rates-http';
import { sandboxRates } from './sandbox-rates';

// The HTTP rates provider (Open Exchange Rates' latest.json shape) against a real HTTP server on
// loopback: figures fetched, cached with the provider's timestamp and quoted from; stale figures
// refused; a provider that is down retried with backoff; and a production instance with no
// provider refusing to quote rather than inventing a rate.
type Answer = { status: number; body?: unknown; delayMs?: number };
let server: Server;
let url: string;
let answers: Answer[] = [];
let hits = 0;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const fresh = (rates: Record<string, number>, at = new Date(), base = 'USD'): Answer => ({
  status: 200,
  body: { disclaimer: 'test feed', timestamp: seconds(at), base, rates },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    // The last answer repeats once the list is used up.
    const a = answers.length > 1 ? answers.shift()! : answers[0];
    setTimeout(() => {
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(a.body === undefined ? '{"error":true}' : JSON.stringify(a.body));
    }, a.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/latest.json?app_id=test`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  answers = [];
  hits = 0;
});

const adapter = (o: Partial<Parameters<typeof httpRates>[0]> = {}) =>
  httpRates({ url, refreshEveryMs: 0, backoffMs: 20, timeoutMs: 500, ...o });

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('the HTTP rates adapter', () => {
  it('caches the figures with the provider timestamp and prices from them exactly', async () => {
    const published = new Date(Date.now() - 60_000);
    answers = [fresh({ USD: 1, MXN: 17.06, EUR: 0.92, VND: 24850, BTC: 0.0000155 }, published)];
    const rates = adapter();
    expect(await rates.refresh(new Date())).toEqual({
      outcome: 'UPDATED',
      asOf: new Date(seconds(published) * 1000),
    });
    const table = rates.table(new Date());
    expect(table.provider).toBe(new URL(url).host);
    expect(table.asOf.getTime()).toBe(seconds(published) * 1000);
    expect(table.expiresAt.getTime()).toBe(seconds(published) * 1000 + 3_600_000);
    expect(table.perUsd.get('MXN')).toEqual({ num: 853n, den: 50n }); // 17.06 exactly
    expect(table.perUsd.get('BTC')).toEqual({ num: 31n, den: 2_000_000n }); // 1.55e-5 exactly
    // EUR -> MXN through USD: 17.06 / 0.92 = 1706 / 92.
    expect(rateIn(table, 'EUR', 'MXN')).toMatchObject({ rate: { num: 853n, den: 46n }, provider: table.provider });
  });

  it('converts a feed quoted against another base through its USD rate', async () => {
    answers = [fresh({ USD: 1.25, GBP: 0.85, MXN: 21.325 }, new Date(), 'EUR')];
    const rates = adapter();
    await rates.refresh(new Date());
    const t = rates.table(new Date());
    expect(t.perUsd.get('USD')).toEqual({ num: 1n, den: 1n });
    expect(t.perUsd.get('EUR')).toEqual({ num: 4n, den: 5n }); // 1 / 1.25
    expect(t.perUsd.get('MXN')).toEqual({ num: 853n, den: 50n }); // 21.325 / 1.25 = 17.06
  });

  it('refuses to quote from figures older than the maximum age', async () => {
    answers = [fresh({ USD: 1, MXN: 17.06 }, new Date(Date.now() - 2 * 3_600_000))];
    const rates = adapter({ refreshEveryMs: 60_000 });
    expect((await rates.refresh(new Date())).outcome).toBe('UPDATED');
    const err = refusal(() => rates.table(new Date()));
    expect(err.code).toBe('QUOTE_REQUEST_FAILED');
    expect(err.details).toEqual({ reason: 'RATES_STALE' });
    expect(err.message).toMatch(/too old to quote from/);
  });

  it('retries a provider that is down, with backoff, and takes its answer when it comes back', async () => {
    answers = [{ status: 503 }, { status: 502 }, fresh({ USD: 1, MXN: 17.1 })];
    const rates = adapter({ attempts: 3 });
    const started = Date.now();
    const outcome = await rates.refresh(new Date());
    expect(outcome.outcome).toBe('UPDATED');
    expect(hits).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(20 + 40); // two backoffs, doubling
    expect(rates.table(new Date()).perUsd.get('MXN')).toEqual({ num: 171n, den: 10n });
  });

  it('keeps the figures it has when the provider stays down, and refuses before it has any', async () => {
    // The worker would ask again in 30 s after a failure; this test asks itself (refreshNow).
    const rates = adapter({ attempts: 2, refreshEveryMs: 60_000 });
    answers = [{ status: 500 }];
    const before = await rates.refreshNow();
    expect(before).toEqual({ outcome: 'FAILED', reason: 'HTTP 500', retryable: true });
    expect(hits).toBe(2);
    const none = refusal(() => rates.table(new Date()));
    expect(none.code).toBe('QUOTE_REQUEST_FAILED');
    expect(none.details).toEqual({ reason: 'RATES_NOT_YET_FETCHED' });
    expect(none.message).toContain('HTTP 500');

    answers = [fresh({ USD: 1, MXN: 17.06 })];
    expect((await rates.refreshNow()).outcome).toBe('UPDATED');
    answers = [{ status: 503 }];
    hits = 0;
    expect((await rates.refreshNow()).outcome).toBe('FAILED');
    expect(hits).toBe(2);
    expect(rates.table(new Date()).perUsd.get('MXN')).toEqual({ num: 853n, den: 50n });
  });
});

describe('the rates as /metrics reports them (ratesStatus)', () => {
  it('says none are held before the first answer, then their age, and not quotable once expired', async () => {
    const rates = adapter({ maxAgeMs: 600_000 });
    const before = ratesStatus(rates, new Date());
    expect(before).toEqual({
      provider: 'HTTP rates API (' + new URL(url).host + ')',
      ageSeconds: null,
      quotable: false,
    });
    // Reading the status never asks the provider (a scrape must not fetch).
    expect(hits).toBe(0);
    const published = new Date(Date.now() - 120_000);
    answers = [fresh({ USD: 1, MXN: 17.06 }, published)];
    expect((await rates.refreshNow()).outcome).toBe('UPDATED');
    const now = new Date();
    const held = ratesStatus(rates, now);
    expect(held.provider).toBe(before.provider);
    expect(held.quotable).toBe(true);
    expect(held.ageSeconds).toBe((now.getTime() - seconds(published) * 1000) / 1000);
    const later = new Date(published.getTime() + 601_000);
    expect(ratesStatus(rates, later)).toMatchObject({
      quotable: false,
      ageSeconds: 601 + (published.getTime() % 1000) / 1000,
    });
  });

  it('reads the sandbox table and the unconnected provider through table()', () => {
    const at = new Date();
    const sandbox = ratesStatus(sandboxRates, at);
    expect(sandbox.provider).toBe('sandbox');
    expect(sandbox.quotable).toBe(true);
    expect(sandbox.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(sandbox.ageSeconds).toBeLessThan(300);
    expect(ratesStatus(unconnectedRates, at)).toEqual({ provider: 'none', ageSeconds: null, quotable: false });
  });
});

describe('the HTTP rates adapter, when the provider misbehaves', () => {
  it('does not retry what will not change (a 401, a body that is not the documented shape)', async () => {
    answers = [{ status: 401, body: { error: true, message: 'invalid_app_id' } }];
    expect(await adapter().refresh(new Date())).toEqual({ outcome: 'FAILED', reason: 'HTTP 401', retryable: false });
    expect(hits).toBe(1);
    hits = 0;
    answers = [{ status: 200, body: { rates: { MXN: 17 } } }];
    const r = await adapter().refresh(new Date());
    expect(r).toMatchObject({ outcome: 'FAILED', retryable: false });
    expect(hits).toBe(1);
  });

  it('times out a provider that does not answer, and treats an unreachable one as down', async () => {
    answers = [{ ...fresh({ USD: 1 }), delayMs: 400 }];
    const slow = await adapter({ timeoutMs: 100, attempts: 2 }).refresh(new Date());
    expect(slow).toMatchObject({ outcome: 'FAILED', retryable: true });
    expect(hits).toBe(2);
    const closed = httpRates({ url: 'http://127.0.0.1:9/latest.json', attempts: 2, backoffMs: 10, timeoutMs: 500 });
    expect(await closed.refresh(new Date())).toMatchObject({ outcome: 'FAILED', retryable: true });
  });

  it('never replaces newer figures with an older answer', async () => {
    const newer = new Date(Date.now() - 10_000);
    answers = [fresh({ USD: 1, MXN: 17.06 }, newer)];
    const rates = adapter();
    await rates.refresh(new Date());
    answers = [fresh({ USD: 1, MXN: 99 }, new Date(newer.getTime() - 60_000))];
    expect((await rates.refresh(new Date())).outcome).toBe('CURRENT');
    expect(rates.table(new Date()).perUsd.get('MXN')).toEqual({ num: 853n, den: 50n });
  });

  it('asks the provider once per refresh interval, however often the worker calls', async () => {
    answers = [fresh({ USD: 1, MXN: 17.06 })];
    const rates = adapter({ refreshEveryMs: 60_000 });
    await rates.refresh(new Date());
    await rates.refresh(new Date());
    await rates.refresh(new Date());
    expect(hits).toBe(1);
  });
});

describe('the HTTP rates adapter with and without a worker in the process', () => {
  it('refreshes from its prices once the interval has passed, pricing from the figures it has meanwhile', async () => {
    answers = [fresh({ USD: 1, MXN: 17.06 })];
    const rates = adapter({ refreshEveryMs: 50 });
    await rates.refreshNow();
    expect(hits).toBe(1);
    // Within the interval a price asks nothing.
    expect(rates.table(new Date()).perUsd.get('MXN')).toEqual({ num: 853n, den: 50n });
    expect(hits).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    answers = [fresh({ USD: 1, MXN: 17.5 }, new Date(Date.now() + 1_000))];
    // Past it, the price still gets the figures held, and a refresh starts behind it.
    expect(rates.table(new Date()).perUsd.get('MXN')).toEqual({ num: 853n, den: 50n });
    await expect.poll(() => rates.cached()?.perUsd.get('MXN')).toEqual({ num: 35n, den: 2n });
    expect(hits).toBe(2);
  });

  it('leaves the refreshes to the worker where one runs: a price never asks the provider', async () => {
    answers = [fresh({ USD: 1, MXN: 17.06 })];
    const rates = adapter({ refreshEveryMs: 50 });
    await rates.refresh(new Date()); // the worker's pass
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(rates.table(new Date()).perUsd.get('MXN')).toEqual({ num: 853n, den: 50n });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(hits).toBe(1);
  });
});

describe('rates through the port', () => {
  let p: TestPlatform;
  let plugged: RatesSource;
  beforeAll(async () => {
    p = await newPlatform();
  });
  afterEach(() => ratesSource.set(sandboxRates));

  it('the worker refreshes the plugged provider; quotes and the rates list price from its figures', async () => {
    const published = new Date(Date.now() - 30_000);
    answers = [fresh({ USD: 1, EUR: 0.9, MXN: 17.06, BTC: 0.0000155 }, published)];
    const rates = adapter({ refreshEveryMs: 60_000 });
    plugged = rates;
    ratesSource.set(plugged);
    // Nothing fetched yet: a price is refused, not made up (and asks for figures).
    expect(refusal(() => midRate('USD', 'MXN', new Date())).details).toEqual({ reason: 'RATES_NOT_YET_FETCHED' });
    // The worker's sweep (registered by lib/wiring.ts) starts the refresh.
    const jobs = createJobRegistry();
    registerWork(jobs, new Map());
    await jobs.sweeps.get('fx.rates.refresh')!({});
    for (let i = 0; i < 100 && !rates.cached(); i++) await new Promise((r) => setTimeout(r, 20));
    await jobs.sweeps.get('fx.rates.refresh')!({}); // within the refresh interval: not asked again
    expect(hits).toBe(1);
    expect(midRate('USD', 'MXN', new Date()).rate).toEqual({ num: 853n, den: 50n });

    const list = await p.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=10000');
    expect(list.status, list.text).toBe(200);
    const mxn = list.body.data.find(
      (r: { destinationCurrency: { code: string } }) => r.destinationCurrency.code === 'MXN',
    );
    expect(mxn.updatedAt).toBe(new Date(seconds(published) * 1000).toISOString());
    expect(mxn.exchangeRate).toBeCloseTo(1 / 17.06, 10);

    const h = await customerWithAccounts(p, 'Rates Customer', ['USD']);
    const dest = await externalAccount(p, h.customerId, 'EUR', '246');
    const q = await p.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: h.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: dest },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10000,
    });
    expect(q.status, q.text).toBe(201);
    expect(q.body.exchangeRate).toBeCloseTo(1 / 0.9, 10);
    const row = await db().quote.findFirstOrThrow({ where: { platformId: p.platformId, id: q.body.id } });
    expect(row.rateProvider).toBe(new URL(url).host);
    expect(row.rateAsOf?.getTime()).toBe(seconds(published) * 1000);
    expect(row.rateExpiresAt?.getTime()).toBe(seconds(published) * 1000 + 3_600_000);
    expect({ num: row.rateNum, den: row.rateDen }).toEqual({ num: 9n, den: 10n });
  });

  it('a provider that leaves out a currency: not listed, and a price for it is refused visibly', async () => {
    answers = [fresh({ USD: 1, EUR: 0.9 })];
    plugged = adapter();
    await plugged.refresh(new Date());
    ratesSource.set(plugged);
    const res = await p.api.get('/exchange-rates?sourceCurrency=USD&sendingAmount=10000');
    expect(res.status, res.text).toBe(200);
    const listed = res.body.data.map((r: { destinationCurrency: { code: string } }) => r.destinationCurrency.code);
    expect(listed).toContain('EUR');
    expect(listed).not.toContain('MXN');
    const err = refusal(() => midRate('USD', 'MXN', new Date()));
    expect(err.code).toBe('QUOTE_REQUEST_FAILED');
    expect(err.message).toMatch(/publishes no rate for MXN/);
    expectError(await p.api.get('/exchange-rates?sourceCurrency=GBP'), 400, 'QUOTE_REQUEST_FAILED');
  });
});

describe('production', () => {
  it('with no rates provider configured, quoting fails with a clear error, never a made-up rate', async () => {
    expect(new Map(portsFor('production', {})).get(ratesSource.name)).toBe(unconnectedRates);
    const configured = new Map(portsFor('production', { CORRIDOR_RATES_URL: url })).get(ratesSource.name);
    expect((configured as RatesSource).describe()).toMatchObject({ party: 'exchange rates', connected: true });
    expect(new Map(portsFor('sandbox', { CORRIDOR_RATES_URL: url })).get(ratesSource.name)).toBe(sandboxRates);
    expect(() => httpRatesFromEnv({ CORRIDOR_RATES_URL: url, CORRIDOR_RATES_MAX_AGE_SECONDS: 'soon' })).toThrow(
      /CORRIDOR_RATES_MAX_AGE_SECONDS/,
    );

    const p = await newPlatform();
    switchMode('production');
    try {
      ratesSource.set(unconnectedRates);
      const res = await p.api.get('/exchange-rates?sourceCurrency=USD&sendingAmount=10000');
      expectError(res, 400, 'QUOTE_REQUEST_FAILED');
      expect(res.body.message).toMatch(/No exchange-rate provider is connected/);
      expect(res.body.details).toMatchObject({ reason: 'RATES_PROVIDER_NOT_CONNECTED' });
    } finally {
      ratesSource.set(sandboxRates);
      switchMode('sandbox');
    }
  });
});
