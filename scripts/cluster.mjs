// Several server processes on one port (node:cluster): the primary forks CORRIDOR_WEB_CONCURRENCY
// workers running scripts/server.mjs; only worker 0 bootstraps and runs the background worker.
// A worker that dies is replaced. scripts/start.mjs decides the count (its default is one per CPU,
// less one for a database on this machine) and always passes it, so it is required here.
import cluster from 'node:cluster';
import promClient from 'prom-client';

const raw = process.env.CORRIDOR_WEB_CONCURRENCY;
const count = Number(raw);
if (!raw || !Number.isFinite(count) || count < 1) {
  console.error(
    `[corridor] scripts/cluster.mjs needs CORRIDOR_WEB_CONCURRENCY, the number of server processes (1 or more); got ${raw ? JSON.stringify(raw) : 'none'}. ` +
      'Start the service with npm start (scripts/start.mjs), which sets it.',
  );
  process.exit(1);
}
const script = process.argv[2];

if (cluster.isPrimary) {
  cluster.setupPrimary({ exec: script });
  const fork = (index) => {
    const worker = cluster.fork(
      index === 0
        ? { CORRIDOR_SERVER_INDEX: '0', CORRIDOR_SKIP_BOOT: '' }
        : { CORRIDOR_SERVER_INDEX: String(index), CORRIDOR_SKIP_BOOT: '1' },
    );
    worker.on('exit', (code, signal) => {
      if (!stopping) {
        console.error(`[corridor] server process ${index} exited (${signal ?? code}); starting another`);
        fork(index);
      }
    });
  };
  let stopping = false;
  for (let i = 0; i < count; i++) fork(i);
  // GET /metrics on any process answers for all (lib/http/metrics.ts): the answering process asks
  // here, and prom-client's aggregator collects every process's registry and merges them.
  const aggregator = new promClient.AggregatorRegistry();
  cluster.on('message', async (worker, msg) => {
    if (msg?.corridorMetrics !== 'request') return;
    try {
      worker.send({ corridorMetrics: 'answer', id: msg.id, text: await aggregator.clusterMetrics() });
    } catch (err) {
      worker.send({ corridorMetrics: 'answer', id: msg.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  // Each server process drains on its own (scripts/server.mjs); the primary waits for all of them.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter(Boolean);
    let left = workers.length;
    if (!left) process.exit(0);
    for (const w of workers) {
      w.once('exit', () => --left === 0 && process.exit(0));
      w.process.kill('SIGTERM');
    }
    const limit = Number(process.env.CORRIDOR_SHUTDOWN_TIMEOUT_MS || 20_000) + 10_000;
    setTimeout(() => process.exit(0), limit).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
