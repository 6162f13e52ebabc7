import { queryStats } from '@/lib/core/db';

// GET /api/bench-stats – SQL statement counters and this process's CPU time for `npm run bench`;
// absent unless the server runs with CORRIDOR_BENCH_STATS=1.
export async function GET(): Promise<Response> {
  if (process.env.CORRIDOR_BENCH_STATS !== '1') return new Response(null, { status: 404 });
  const cpu = process.cpuUsage();
  return Response.json({ ...queryStats, cpuMs: (cpu.user + cpu.system) / 1000, pid: process.pid });
}
