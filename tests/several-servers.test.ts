import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startProductionServer, type ProductionServer } from './support/production-server';
import { call, until } from './support/ops';
import { startReceiver, type Receiver } from './support/webhook-receiver';

// Issue 28 point 8: several servers on one PostgreSQL database share the work with nothing done
// twice, and the worker can run in a process of its own (CORRIDOR_WORKER=only), which serves only
// its health, readiness and metrics. Also point 2's cluster aggregation: with several server
// processes on one port, a scrape of /metrics answers for all of them (counters summed).
// (The crash soak across two servers, killing one: `npm run soak -- --servers 2 --db postgres`,
// which `npm test` runs small: scripts/test.mjs.)
const TOKEN = 'several-servers-metrics-token-51ab';
const common = {
  CORRIDOR_WEBHOOK_ALLOW_PRIVATE: '1',
  CORRIDOR_METRICS_TOKEN: TOKEN,
  CORRIDOR_WORKER_INTERVAL_MS: '200',
  // The request, job and webhook-attempt lines say which process did what.
  CORRIDOR_LOG_LEVEL: 'info',
};

const get = async (server: ProductionServer, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.base}${path}`, { headers });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
};

/** A second server with a worker beside `api`; customers created on both; each event sent once. */
async function spreadAcrossTwo(api: ProductionServer, receiver: Receiver) {
  const second = await startProductionServer(
    false,
    { ...common, CORRIDOR_WORKER: 'on' },
    { databaseUrl: api.databaseUrl },
  );
  try {
    const servers = [api, second];
    const created = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const s = servers[i % 2];
        const c = await call(s, api, 'POST', '/customers', {
          customerType: 'INDIVIDUAL',
          fullName: `Sam Several ${i}`,
          platformCustomerId: `several-${i}-${Date.now()}`,
        });
        expect(c.status, c.text).toBe(201);
        return c.body.id as string;
      }),
    );
    const about = (id: string) => receiver.received.filter((r) => r.json.data?.id === id);
    await until(() => created.every((id) => about(id).length > 0), 60_000);
    await new Promise((r) => setTimeout(r, 1_000));
    for (const id of created) {
      const events = about(id).map((r) => r.json.id);
      expect(new Set(events).size, id).toBe(events.length);
    }
  } finally {
    await second.stop();
  }
}

describe.skipIf(inject('embedded'))('several servers on one PostgreSQL database', () => {
  let api: ProductionServer; // serves, runs no worker (CORRIDOR_WORKER=off)
  let worker: ProductionServer; // the worker alone (CORRIDOR_WORKER=only)
  let receiver: Receiver;
  beforeAll(async () => {
    api = await startProductionServer(false, { ...common, CORRIDOR_WORKER: 'off' });
    worker = await startProductionServer(
      false,
      { ...common, CORRIDOR_WORKER: 'only' },
      { databaseUrl: api.databaseUrl },
    );
    receiver = await startReceiver();
    const config = await call(api, api, 'PATCH', '/config', { webhookEndpoint: receiver.url });
    expect(config.status, config.text).toBe(200);
  }, 600_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await receiver?.close();
  });

  it('a worker-only process serves its health, readiness and metrics, and nothing else', async () => {
    expect((await get(worker, '/api/health')).status).toBe(200);
    let ready = await get(worker, '/api/ready');
    for (let i = 0; i < 40 && ready.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      ready = await get(worker, '/api/ready');
    }
    expect(ready.status, ready.text).toBe(200);
    const metrics = await get(worker, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('corridor_jobs_due');
    for (const path of ['/api/2025-10-13/config', '/console', '/wallet', '/']) {
      const refused = await get(worker, path);
      expect(refused.status, path).toBe(404);
      expect(refused.type).toMatch(/^application\/json/);
      const body = JSON.parse(refused.text);
      expect(body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
      expect(body.message).toMatch(/CORRIDOR_WORKER=only/);
    }
    // The serving process is ready because a worker elsewhere beats.
    expect((await get(api, '/api/ready')).status).toBe(200);
  });

  it('the worker-only process does the serving one’s background work: its webhooks go out once each', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await call(api, api, 'POST', '/customers', {
        customerType: 'INDIVIDUAL',
        fullName: `Wendy Worker ${i}`,
        platformCustomerId: `worker-only-${i}-${Date.now()}`,
      });
      expect(c.status, c.text).toBe(201);
      ids.push(c.body.id);
    }
    const about = (id: string) => receiver.received.filter((r) => r.json.data?.id === id);
    await until(() => ids.every((id) => about(id).length > 0), 30_000);
    await new Promise((r) => setTimeout(r, 1_000)); // a second sender would have sent by now
    // Each event (by its id) arrived once, whichever events a new customer gets in the sandbox.
    for (const id of ids) {
      const events = about(id).map((r) => r.json.id);
      expect(new Set(events).size, id).toBe(events.length);
    }
    expect(worker.output()).toMatch(/webhook attempt/);
    expect(api.output()).not.toMatch(/webhook attempt/);
  });

  it('two servers with workers, requests spread across both: every webhook goes out once', () =>
    spreadAcrossTwo(api, receiver));
});

describe.skipIf(inject('embedded'))('several server processes on one port', () => {
  let cluster: ProductionServer;
  beforeAll(async () => {
    cluster = await startProductionServer(false, common, { processes: 2 });
  }, 600_000);
  afterAll(() => cluster?.stop());

  /** One request on a connection of its own, so that the cluster hands it to either process. */
  const fresh = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const auth = Buffer.from(`${cluster.clientId}:${cluster.clientSecret}`).toString('base64');
      const req = http.request(
        `${cluster.base}/api/2025-10-13${path}`,
        { agent: false, headers: { authorization: `Basic ${auth}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('sums every process’s counters in each scrape, whichever process answers it', async () => {
    const N = 40;
    for (let i = 0; i < N; i++) expect(await fresh('/config')).toBe(200);
    // Both processes answered some of them (each request log line names its process).
    const pids = new Set(
      cluster
        .output()
        .split('\n')
        .filter((l) => l.includes('"route":"/config"'))
        .map((l) => JSON.parse(l).pid),
    );
    expect(pids.size).toBe(2);
    // Each scrape (on a connection of its own: either process answers) counts all N.
    for (let i = 0; i < 4; i++) {
      const text = await new Promise<string>((resolve, reject) => {
        const req = http.request(
          `${cluster.base}/metrics`,
          { agent: false, headers: { authorization: `Bearer ${TOKEN}` } },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve(body));
          },
        );
        req.on('error', reject);
        req.end();
      });
      const counted = text
        .split('\n')
        .filter((l) => l.startsWith('corridor_http_requests_total{') && l.includes('route="/config"'))
        .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
      expect(counted).toBe(N);
    }
  });
});
