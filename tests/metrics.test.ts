import type pg from 'pg';
import type { ServerPool } from '@/lib/core/server-pool';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { GET } from '@/app/metrics/route';
import { currentCorridor } from '@/lib/core/context';
import { HEADER, file, person, upload } from '@/lib/bulk-import/testing';
import { deliverDueWebhooks } from '@/lib/webhooks/service';
import { newPlatform, type TestPlatform } from './support/api';
import { advance, customerWithAccounts, externalAccount, fund, type Holder } from './support/money';
import { receiverFor, type Receiver } from './support/webhook-receiver';
import { call } from './support/ops';
import { startProductionServer } from './support/production-server';
import { sample } from './support/prometheus';
import { lithicAsa, lithicAsaFromEnv } from '@/lib/cards/lithic';
import { upload as uploadDocument } from '@/lib/documents/testing';
import { complete } from '@/lib/verifications/testing';

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

let p: TestPlatform;
let h: Holder;
let rx: Receiver | undefined;
let importer: TestPlatform; // its clock stays at the wall's: a job it enqueues now is due now
beforeAll(async () => {
  p = await newPlatform();
  importer = await newPlatform();
  h = await customerWithAccounts(p, 'Mia Metrics', ['USD']);
  await fund(p, h.accounts.USD, 50_000);
});
afterAll(() => rx?.close());

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
  // A job due now that no worker runs here (tests run jobs themselves): the queue's depth.
  const imported = await upload(importer.api, file(HEADER, person(`metrics-${Date.now()}`)));
  expect(imported.status, imported.text).toBe(202);
  // The database-held figures are read at most every 5 s.
  await new Promise((r) => setTimeout(r, 5_200));
  // Scraped while every database connection is taken and a statement waits for one: the pool's
  // figures say so (the scrape's own statements then wait too, until the connections come back).
  const second = await whilePoolIsFull(async () => (await scrape(`Bearer ${TOKEN}`)).text());

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
  moved('corridor_jobs_due', { kind: 'BULK_CUSTOMER_IMPORT' });
  expect(sample(second, 'corridor_jobs_oldest_due_age_seconds')).toBeGreaterThan(0);
  // Idle at the first scrape; at the second every connection in use and a statement waiting.
  const size = poolSize();
  expect(sample(first, 'corridor_db_pool_connections', { state: 'waiting' })).toBe(0);
  expect(sample(second, 'corridor_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(1);
  expect(sample(second, 'corridor_db_pool_connections', { state: 'in_use' })).toBe(size);
  // Idle: only the reads' pipelined connection, when one is open (PostgreSQL).
  expect(sample(second, 'corridor_db_pool_connections', { state: 'idle' })).toBe(pipelinedOpen());
  // The sandbox's rates: quotable, from a table at most one five-minute window old.
  expect(sample(second, 'corridor_fx_rates_quotable', { provider: 'sandbox' })).toBe(1);
  const age = sample(second, 'corridor_fx_rates_age_seconds', { provider: 'sandbox' });
  expect(age).toBeGreaterThanOrEqual(0);
  expect(age).toBeLessThan(300);
});

it('counts webhook attempts by outcome: delivered, and refused (to be retried)', async () => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1'; // the receiver listens on loopback
  try {
    const q = await newPlatform();
    // The TEST webhook sent on configuring the endpoint is accepted; the customer's events refused.
    ({ rx } = await receiverFor(q, (r) => ({ status: r.json.type === 'TEST' ? 200 : 503 })));
    await customerWithAccounts(q, 'Walt Webhook', ['USD']);
    const first = await (await scrape(`Bearer ${TOKEN}`)).text();
    const summary = await deliverDueWebhooks({ platformId: q.platformId });
    expect(summary.delivered).toBe(1);
    expect(summary.retrying).toBeGreaterThanOrEqual(1);
    const second = await (await scrape(`Bearer ${TOKEN}`)).text();
    const delta = (outcome: string) =>
      sample(second, 'corridor_webhook_attempts_total', { outcome }) -
      (sample(first, 'corridor_webhook_attempts_total', { outcome }) || 0);
    expect(delta('DELIVERED')).toBe(summary.delivered);
    expect(delta('PENDING')).toBe(summary.retrying);
    expect(second).toContain('# TYPE corridor_webhook_attempts_total counter');
  } finally {
    delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
  }
});

// Issue 25: which parties a real provider serves, and the KYC work waiting for a person.
it('reports each party as connected (1) or not (0), and the verifications waiting for manual review', async () => {
  process.env.CORRIDOR_METRICS_TOKEN = TOKEN;
  const plugged = lithicAsa.get();
  lithicAsa.set(lithicAsaFromEnv({ CORRIDOR_LITHIC_ASA_SECRET: 'whsec_bWV0cmljcy1hc2Etc2VjcmV0' }));
  try {
    // A complete submission whose name ends in 001 waits in PENDING_MANUAL_REVIEW (sandbox table).
    const c = await p.api.post('/customers', complete('Rhea Review 001'));
    expect(c.status, c.text).toBe(201);
    await uploadDocument(p.api, c.body.id, 'PASSPORT');
    const v = await p.api.post('/verifications', { customerId: c.body.id });
    expect(v.body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
    // The database-held figures are read at most every 5 s: past the previous test's scrape.
    await new Promise((r) => setTimeout(r, 5_200));
    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    expect(text).toContain('# TYPE corridor_adapter_connected gauge');
    expect(sample(text, 'corridor_adapter_connected', { party: 'card authorizations' })).toBe(1);
    for (const party of ['payment rail', 'KYC/KYB', 'liveness (factor resets)', 'card issuing', 'stablecoin provider'])
      expect(sample(text, 'corridor_adapter_connected', { party }), party).toBe(0); // sandbox: simulated
    expect(sample(text, 'corridor_verifications_waiting_for_review')).toBeGreaterThanOrEqual(1);
  } finally {
    lithicAsa.set(plugged);
  }
});

it('serves process metrics on a running server (npm start), and they move', async () => {
  const server = await startProductionServer(inject('embedded'), { CORRIDOR_METRICS_TOKEN: TOKEN });
  try {
    const scrapeServer = async () => {
      const res = await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const first = await scrapeServer();
    for (let i = 0; i < 30; i++) expect((await call(server, server, 'GET', '/customers?limit=5')).status).toBe(200);
    const second = await scrapeServer();
    const requests = { route: '/customers', method: 'GET', status: '200' };
    expect(sample(second, 'corridor_http_requests_total', requests)).toBe(
      30 + (sample(first, 'corridor_http_requests_total', requests) || 0),
    );
    expect(sample(second, 'process_cpu_seconds_total')).toBeGreaterThan(sample(first, 'process_cpu_seconds_total'));
    expect(sample(second, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(sample(second, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sample(second, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(second, 'corridor_db_pool_connections', { state: 'waiting' })).toBe(0);
  } finally {
    await server.stop();
  }
}, 600_000);

const pool = () => currentCorridor().database.pool as pg.Pool;
const pipelinedOpen = () => (pool() as ServerPool).reads?.pool.totalCount ?? 0;
const poolSize = () => (pool() as unknown as { options: { max: number } }).options.max;

/**
 * Runs `fn` while this process's pool has every connection checked out and one statement waiting,
 * then gives the connections back (after a moment, so `fn` sees the full pool) and returns its answer.
 */
async function whilePoolIsFull<T>(fn: () => Promise<T>): Promise<T> {
  const held = await Promise.all(Array.from({ length: poolSize() }, () => pool().connect()));
  // Not a plain read: those take the pipelined connection on PostgreSQL (lib/core/read-route.ts),
  // which a full pool does not hold up.
  const waiting = pool().query('VALUES (1)');
  try {
    const answer = fn();
    await new Promise((r) => setTimeout(r, 300));
    for (const c of held.splice(0)) c.release();
    await waiting;
    return await answer;
  } finally {
    for (const c of held) c.release();
  }
}
