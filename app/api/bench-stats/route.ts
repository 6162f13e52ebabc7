import { queryStats } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { authenticate } from '@/lib/http/authenticate';
import { clientAddress } from '@/lib/http/client-address';
import { errorResponse } from '@/lib/http/endpoint';

// GET /api/bench-stats – SQL statement counters and this process's CPU time for `npm run bench`;
// absent unless the server runs with CORRIDOR_BENCH_STATS=1, and then only for a platform's API
// credentials (HTTP Basic, as the API takes them): the figures describe the server's load.
export async function GET(req: Request): Promise<Response> {
  if (process.env.CORRIDOR_BENCH_STATS !== '1') return new Response(null, { status: 404 });
  try {
    await authenticate(req.headers.get('authorization'), 'platform', clientAddress(req.headers));
  } catch (err) {
    if (err instanceof DomainError) return errorResponse(err);
    throw err;
  }
  const cpu = process.cpuUsage();
  return Response.json({ ...queryStats(), cpuMs: (cpu.user + cpu.system) / 1000, pid: process.pid });
}
