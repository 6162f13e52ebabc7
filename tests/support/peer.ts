import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { API_BASE } from '@/lib/core/mode';
import { parseJson, stringifyJson } from '@/lib/core/json';
import { basic, type ApiResponse, type Credentials } from './api';

// Another server process on the test database (tests about several processes): the real route
// handlers behind node:http, with their own pool, caches and invalidation listener.
export interface Peer {
  pid: number;
  /** `creds`: platform credentials (Basic), or an Authorization header as it is sent (e.g. an agent's Bearer). */
  request(method: string, path: string, creds: Credentials | string, body?: unknown): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export async function startPeer(): Promise<Peer> {
  const main = path.join(__dirname, 'peer-main.mjs');
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: { ...process.env, CORRIDOR_WORKER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`peer server did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => reject(new Error(`peer server exited (${code}):\n${out}`)));
  });
  return {
    pid: child.pid!,
    async request(method, p, creds, body) {
      const res = await fetch(`http://127.0.0.1:${port}${API_BASE}${p}`, {
        method,
        headers: {
          authorization: typeof creds === 'string' ? creds : basic(creds),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : stringifyJson(body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text ? parseJson(text) : undefined };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
