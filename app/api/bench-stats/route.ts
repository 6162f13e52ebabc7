import { queryStats } from '@/lib/db';

// GET /api/bench-stats – SQL statement counters for `npm run bench`; absent unless the server
// runs with CORRIDOR_BENCH_STATS=1.
export async function GET(): Promise<Response> {
  if (process.env.CORRIDOR_BENCH_STATS !== '1') return new Response(null, { status: 404 });
  return Response.json({ ...queryStats, pid: process.pid });
}
