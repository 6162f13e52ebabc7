import { afterAll, beforeAll, expect, it } from 'vitest';
import { GET } from '@/app/metrics/route';
import { newPlatform, type TestPlatform } from './support/api';
import { advance, customerWithAccounts, externalAccount, fund, type Holder } from './support/money';

// Issue 28 point 2: GET /metrics in Prometheus text format, closed unless CORRIDOR_METRICS_TOKEN
// is set and presented; after a payment flow the request, payment, ledger, webhook and
// Idempotency-Key figures have moved.
const TOKEN = 'metrics-token-for-tests-3f9a';
const before = process.env.CORRIDOR_METRICS_TOKEN;
afterAll(() => {
  if (before === undefined) delete process.env.CORRIDOR_METRICS_TOKEN;
  else process.env.CORRIDOR_METRICS_TOKEN = before;
});

const scrape = (authorization?: string) =>
  GET(new Request('http://localhost/metrics', { headers: authorization ? { authorization } : {} }));

/** The value of one sample: `name{labels}` with every given label equal, summed over the rest. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let seen = false;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      total += Number(m[3]);
      seen = true;
    }
  }
  return seen ? total : NaN;
}

let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Mia Metrics', ['USD']);
  await fund(p, h.accounts.USD, 50_000);
});

it('is closed unless a token is configured, and then only to that token', async () => {
  delete process.env.CORRIDOR_METRICS_TOKEN;
  const off = await scrape(`Bearer ${TOKEN}`);
  expect(off.status).toBe(404);
  expect((await off.json()).code).toBe('NOT_FOUND');
  process.env.CORRIDOR_METRICS_TOKEN = TOKEN;
  for (const wrong of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(0, -1)}`]) {
    const res = await scrape(wrong);
    expect(res.status, wrong).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  }
  const ok = await scrape(`Bearer ${TOKEN}`);
  expect(ok.status).toBe(200);
  expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await ok.text();
  expect(text).toContain('# TYPE corridor_http_requests_total counter');
  expect(text).toContain('# TYPE corridor_http_request_duration_seconds histogram');
});

it('moves the request, payment, ledger, webhook and Idempotency-Key figures after a payment flow', async () => {
  process.env.CORRIDOR_METRICS_TOKEN = TOKEN;
  const first = await (await scrape(`Bearer ${TOKEN}`)).text();
  const dest = await externalAccount(p, h.customerId, 'USD', '111');
  const body = { source: { accountId: h.accounts.USD }, destination: { accountId: dest }, amount: 1_000 };
  const key = { headers: { 'idempotency-key': `metrics-${Date.now()}` } };
  const out = await p.api.post('/transfer-out', body, key);
  expect(out.status, out.text).toBe(201);
  const again = await p.api.post('/transfer-out', body, key);
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  const changed = await p.api.post('/transfer-out', { ...body, amount: 2_000 }, key);
  expect(changed.status).toBe(400);
  await advance(p, 60);
  // The database-held figures are read at most every 5 s.
  await new Promise((r) => setTimeout(r, 5_200));
  const second = await (await scrape(`Bearer ${TOKEN}`)).text();

  const moved = (name: string, labels: Record<string, string> = {}) => {
    const a = sample(first, name, labels);
    const b = sample(second, name, labels);
    expect(b, `${name} ${JSON.stringify(labels)}`).toBeGreaterThan(Number.isNaN(a) ? 0 : a);
  };
  moved('corridor_http_requests_total', { route: '/transfer-out', method: 'POST', status: '201' });
  moved('corridor_http_request_duration_seconds_count', { route: '/transfer-out', method: 'POST' });
  moved('corridor_idempotency_keys_total', { outcome: 'replay' });
  moved('corridor_idempotency_keys_total', { outcome: 'different_request' });
  moved('corridor_payments', { type: out.body.type });
  moved('corridor_ledger_postings');
  // Each change wrote webhook events (no endpoint is configured: they wait or are skipped).
  expect(sample(second, 'corridor_webhook_oldest_undelivered_age_seconds')).toBeGreaterThanOrEqual(0);
  expect(sample(second, 'corridor_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(0);
  expect(sample(second, 'corridor_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
  // The sandbox's rates: quotable, from a table at most one five-minute window old.
  expect(sample(second, 'corridor_fx_rates_quotable', { provider: 'sandbox' })).toBe(1);
  const age = sample(second, 'corridor_fx_rates_age_seconds', { provider: 'sandbox' });
  expect(age).toBeGreaterThanOrEqual(0);
  expect(age).toBeLessThan(300);
});
