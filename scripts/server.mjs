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

const app = next({ dev: false, dir: root, port, hostname: host ?? 'localhost' });
await app.prepare();
const handle = app.getRequestHandler();
// The TCP peer's address, for throttling failed authentication (lib/http/client-address.ts): set
// here, where the socket is known, and never taken from the client.
const PEER_ADDRESS_HEADER = 'x-corridor-peer-address';
const server = createServer((req, res) => {
  req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? 'unknown';
  return handle(req, res);
});
server.listen(port, host, () => {
  if (process.env.CORRIDOR_SERVER_INDEX === '0' || !process.env.CORRIDOR_SERVER_INDEX)
    console.log(`[corridor] listening on http://${host ?? 'localhost'}:${port}`);
});

function shutdown() {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
