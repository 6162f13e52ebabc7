// The production HTTP server: Next.js's request handler on node:http, behind the API's own edge
// (scripts/http-edge.mjs: limits, timeouts, and the error body for what Next.js never sees). Run
// by scripts/start.mjs, once per server process (several on PostgreSQL; see
// CORRIDOR_WEB_CONCURRENCY). Only the first process bootstraps the sandbox and runs the
// background worker; the others just serve.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { createServer } from './http-edge.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT || 3000);
const host = process.env.HOSTNAME || undefined;

const DRAIN_MS = Number(process.env.CORRIDOR_SHUTDOWN_TIMEOUT_MS || 20_000);
let stopping = false;

const app = next({ dev: false, dir: root, port, hostname: host ?? 'localhost' });
await app.prepare();
const handle = app.getRequestHandler();
// The TCP peer's address, for throttling failed authentication (lib/http/client-address.ts): set
// here, where the socket is known, and never taken from the client.
const PEER_ADDRESS_HEADER = 'x-corridor-peer-address';
// Event streams a client holds open (MCP's GET /mcp, server-sent events): subscriptions, not
// requests under way. A draining server ends them at once — the client reconnects, to another
// server — instead of waiting out the drain limit for answers that never finish.
const streams = new Set();
// Requests under way per connection, and every open connection: a draining server closes the
// connections with none under way — including those a client opened ahead of a request it never
// sent (browsers and HTTP clients pre-connect), which Node's closeIdleConnections leaves open
// until its headers timeout, longer than the drain limit.
const active = new WeakMap();
const sockets = new Set();
const isEventStream = (req) => req.method === 'GET' && String(req.headers.accept ?? '').includes('text/event-stream');
// CORRIDOR_WORKER=only: a process for the background worker alone, which still listens on its
// PORT for its liveness, readiness and metrics (scripts/http-edge.mjs refuses everything else).
const workerOnly = process.env.CORRIDOR_WORKER === 'only';
const server = createServer(
  (req, res) => {
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? 'unknown';
    // Draining (below): answer what arrived, then close the connection rather than keep it alive.
    if (stopping) res.shouldKeepAlive = false;
    const socket = req.socket;
    active.set(socket, (active.get(socket) ?? 0) + 1);
    res.on('close', () => active.set(socket, (active.get(socket) ?? 1) - 1));
    if (isEventStream(req)) {
      streams.add(res);
      res.on('close', () => streams.delete(res));
    }
    return handle(req, res);
  },
  { workerOnly },
);
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
server.listen(port, host, () => {
  if (process.env.CORRIDOR_SERVER_INDEX === '0' || !process.env.CORRIDOR_SERVER_INDEX)
    console.log(
      `[corridor] listening on http://${host ?? 'localhost'}:${port}${workerOnly ? ' (worker only: /api/health, /api/ready, /metrics)' : ''}`,
    );
});

// SIGTERM (or Ctrl-C): stop accepting connections, let the requests under way finish (for up to
// CORRIDOR_SHUTDOWN_TIMEOUT_MS, then cut), then close the app's Corridor instance — its worker
// finishes or releases what it claimed, its instance lock and database connections close — and
// exit 0. A request is either answered or never started.
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  const drained = new Promise((resolve) => server.close(() => resolve(true)));
  for (const res of streams) res.end();
  // A keep-alive connection whose request was under way becomes idle once answered: close it then.
  const closeIdle = () => {
    server.closeIdleConnections();
    for (const socket of sockets) if (!active.get(socket)) socket.destroy();
  };
  const idle = setInterval(closeIdle, 50);
  closeIdle();
  // Connections that stay busy past the limit are cut; the rest close as their answers go out.
  const late = new Promise((resolve) => setTimeout(() => resolve(false), DRAIN_MS).unref());
  const inTime = await Promise.race([drained, late]);
  clearInterval(idle);
  if (!inTime) server.closeAllConnections();
  // instrumentation.ts made the app's instance this process's one handle (lib/core/context.ts).
  const app = globalThis.__corridorApp;
  try {
    await app?.close();
  } catch (err) {
    console.error(`[corridor] closing the service failed: ${err instanceof Error ? err.message : err}`);
  }
  // Traces on (lib/ops/tracing.ts): the spans still buffered go out before the process ends.
  try {
    await globalThis.__corridorTracing?.shutdown();
  } catch (err) {
    console.error(`[corridor] sending the last traces failed: ${err instanceof Error ? err.message : err}`);
  }
  console.log(
    `[corridor] ${signal}: stopped in ${Date.now() - started} ms${inTime ? '' : ' (requests still running were cut)'}`,
  );
  process.exit(0);
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
