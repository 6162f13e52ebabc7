// The bench's measurements: concurrent load over keep-alive connections (rate and latency), the
// server's statement counters and CPU time, the database's CPU time, and the payout backlog.
import { readFileSync, readdirSync } from 'node:fs';
import { Connection } from '../bench-client.mjs';
import { AUTH, api } from './server.mjs';

export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
export const SECONDS = Number(process.env.BENCH_SECONDS || 15);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 3);

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

export async function load(base, seconds, fn) {
  const latencies = [];
  let errors = 0;
  let firstError;
  const u = new URL(base);
  const conns = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new Connection(u.hostname, Number(u.port));
      await c.connect();
      return c;
    }),
  );
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    conns.map(async (conn) => {
      while (Date.now() < end) {
        const t = performance.now();
        try {
          await fn(conn);
          latencies.push(performance.now() - t);
        } catch (err) {
          errors++;
          firstError ??= err.message;
        }
      }
    }),
  );
  for (const c of conns) c.close();
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    firstError,
  };
}

/**
 * Statement counters and CPU time summed over the server processes (each answers for itself);
 * embeddedHost is the pid of the process hosting the embedded database (null on PostgreSQL).
 */
export async function stats(base, embeddedHost) {
  const byPid = new Map();
  for (let i = 0; i < 40; i++) {
    const r = await fetch(`${base}/api/bench-stats`, { headers: { authorization: AUTH } });
    if (!r.ok) return null;
    const s = await r.json();
    byPid.set(s.pid, s);
  }
  const sum = { statements: 0, dbMs: 0, transactions: 0, cpuMs: 0, processes: byPid.size };
  sum.byText = {};
  for (const s of byPid.values()) {
    for (const k of ['statements', 'dbMs', 'transactions', 'cpuMs']) sum[k] += s[k];
    for (const [text, v] of Object.entries(s.byText ?? {})) {
      const e = (sum.byText[text] ??= { n: 0, ms: 0 });
      e.n += v.n;
      e.ms += v.ms;
    }
  }
  sum.databaseCpuMs = databaseCpuMs(embeddedHost);
  return sum;
}

/**
 * CPU time (ms) of the database processes on this machine, when they can be seen (Linux /proc):
 * the PostgreSQL server's processes, or the process hosting the embedded database.
 */
function databaseCpuMs(embeddedHost) {
  let total = 0;
  try {
    const tick = 10; // ms per clock tick (USER_HZ 100)
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (!(cmd.startsWith('postgres') || Number(pid) === embeddedHost)) continue;
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        total += (Number(f[11]) + Number(f[12])) * tick;
      } catch {
        /* gone */
      }
    }
  } catch {
    return null;
  }
  return total;
}

export async function backlog(base) {
  return (await api(base, 'GET', '/transactions?status=PROCESSING&limit=1')).totalCount;
}

/** Waits until the worker has settled every payout in flight; returns the seconds it took. */
export async function drained(base) {
  const start = Date.now();
  while ((await backlog(base)) > 0 && Date.now() - start < 120_000) await new Promise((r) => setTimeout(r, 250));
  return (Date.now() - start) / 1000;
}
