import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeModules } from '@/lib/http/route-manifest';
import { API_BASE } from '@/lib/core/mode';
import { PEER_ADDRESS_HEADER } from '@/lib/http/client-address';
import { createCorridor } from '@/lib/boot';
import { setAppCorridor } from '@/lib/core/context';

// The process's instance, built as every server process builds it at start (instrumentation.ts).
setAppCorridor(createCorridor());

// A second server process for tests about several processes sharing one database: node:http in
// front of the real route handlers (the manifest's), in a process with its own connection pool,
// caches and invalidation listener. Started by tests/support/peer.ts through peer-main.mjs.
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface Route {
  parts: string[];
  dynamic: number;
  methods: Record<string, Handler>;
}

function table(): Route[] {
  const byPath = new Map<string, Route>();
  for (const mod of routeModules) {
    for (const [method, handler] of Object.entries(mod)) {
      const def = (handler as { def?: { path: string } }).def;
      if (!def) continue;
      let route = byPath.get(def.path);
      if (!route) {
        const parts = def.path.split('/').filter(Boolean);
        route = { parts, dynamic: parts.filter((p) => p.startsWith('{')).length, methods: {} };
        byPath.set(def.path, route);
      }
      route.methods[method] = handler as Handler;
    }
  }
  // Static segments win over parameters, as in Next's router.
  return [...byPath.values()].sort((a, b) => a.dynamic - b.dynamic);
}

function match(routes: Route[], pathname: string) {
  const parts = pathname.split('/').filter(Boolean);
  for (const route of routes) {
    if (route.parts.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (route.parts.every((p, i) => (p.startsWith('{') ? ((params[p.slice(1, -1)] = parts[i]), true) : p === parts[i])))
      return { route, params };
  }
  return null;
}

export async function serve(): Promise<number> {
  const routes = table();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const found = url.pathname.startsWith(API_BASE + '/') ? match(routes, url.pathname.slice(API_BASE.length)) : null;
    const handler = found?.route.methods[req.method ?? 'GET'];
    if (!found || !handler) {
      res.writeHead(404).end();
      return;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    headers.set(PEER_ADDRESS_HEADER, req.socket.remoteAddress ?? 'unknown'); // as scripts/server.mjs does
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await handler(new Request(url, { method: req.method, headers, body }), {
      params: Promise.resolve(found.params),
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
