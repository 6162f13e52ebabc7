// Several server processes on one port (node:cluster): the primary forks CORRIDOR_WEB_CONCURRENCY
// workers running scripts/server.mjs; only worker 0 bootstraps and runs the background worker.
// A worker that dies is replaced.
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';

const count = Math.max(1, Number(process.env.CORRIDOR_WEB_CONCURRENCY || availableParallelism()));
const script = process.argv[2];

if (cluster.isPrimary) {
  cluster.setupPrimary({ exec: script });
  const fork = (index) => {
    const worker = cluster.fork(index === 0 ? { CORRIDOR_SERVER_INDEX: '0', CORRIDOR_SKIP_BOOT: '' } : { CORRIDOR_SERVER_INDEX: String(index), CORRIDOR_SKIP_BOOT: '1' });
    worker.on('exit', (code, signal) => {
      if (!stopping) {
        console.error(`[corridor] server process ${index} exited (${signal ?? code}); starting another`);
        fork(index);
      }
    });
  };
  let stopping = false;
  for (let i = 0; i < count; i++) fork(i);
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 6_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
