import { db } from '@/lib/core/db';
import { readiness } from '@/lib/ops/readiness';
import { logged } from '@/lib/http/request-log';

// GET /api/ready – readiness: the database answers, every migration is applied, a worker ticked
// lately (lib/ops/readiness.ts). 200 when ready, 503 with the failing checks otherwise.
export const GET = logged('/api/ready', async () => {
  const r = await readiness(db());
  return new Response(JSON.stringify({ status: r.ready ? 'ready' : 'not_ready', checks: r.checks }), {
    status: r.ready ? 200 : 503,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
});
