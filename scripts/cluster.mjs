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
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 6_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
