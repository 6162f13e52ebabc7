import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// Finds the route module for a request path the way Next's App Router does: static segments
// before dynamic ones before catch-alls. Lets tests call the real route handlers in process.
const API_DIR = path.resolve(__dirname, '..', '..', 'app', 'api', '2025-10-13');

interface Route {
  segments: string[];
  file: string;
  template: string;
}

let routes: Route[] | undefined;

function scan(dir: string, prefix: string[] = []): Route[] {
  const out: Route[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...scan(full, [...prefix, name]));
    else if (name === 'route.ts') {
      out.push({
        segments: prefix,
        file: full,
        template:
          '/' +
          prefix.map((s) => (s.startsWith('[...') ? '*' : s.startsWith('[') ? `{${s.slice(1, -1)}}` : s)).join('/'),
      });
    }
  }
  return out;
}

function rank(seg: string): number {
  return seg.startsWith('[...') ? 2 : seg.startsWith('[') ? 1 : 0;
}

export function matchRoute(pathname: string): { route: Route; params: Record<string, string | string[]> } | null {
  routes ??= scan(API_DIR);
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const candidates: { route: Route; params: Record<string, string | string[]>; key: number[] }[] = [];
  for (const route of routes) {
    const params: Record<string, string | string[]> = {};
    let ok = true;
    let i = 0;
    for (const seg of route.segments) {
      if (seg.startsWith('[...')) {
        if (i >= parts.length) ok = false;
        else params[seg.slice(4, -1)] = parts.slice(i);
        i = parts.length;
        break;
      }
      if (i >= parts.length) {
        ok = false;
        break;
      }
      if (seg.startsWith('[')) params[seg.slice(1, -1)] = parts[i];
      else if (seg !== parts[i]) {
        ok = false;
        break;
      }
      i++;
    }
    if (ok && i === parts.length) candidates.push({ route, params, key: route.segments.map(rank) });
  }
  candidates.sort((a, b) => {
    for (let k = 0; k < Math.max(a.key.length, b.key.length); k++) {
      const d = (a.key[k] ?? 3) - (b.key[k] ?? 3);
      if (d) return d;
    }
    return 0;
  });
  return candidates[0] ?? null;
}
