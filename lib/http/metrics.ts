import { randomUUID, timingSafeEqual } from 'node:crypto';
import { currentCorridor } from '../core/context';

// GET /metrics (app/metrics/route.ts): Prometheus text format on the service's own port, closed
// unless CORRIDOR_METRICS_TOKEN is set and presented as `Authorization: Bearer <token>`. With
// several server processes (scripts/cluster.mjs) the answering process asks the primary, which
// sums what every process counted (database-held figures are taken once, not summed).
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const CLUSTER_WAIT_MS = 5_000;

const problem = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ status, code, message }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-should-retry': 'false', ...headers },
  });

function presented(req: Request, token: string): boolean {
  const header = req.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1]);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

type Answer = { corridorMetrics: 'answer'; id: string; text?: string; error?: string };

/** The primary's aggregate of every server process (null when this process is not in a cluster). */
function fromPrimary(): Promise<string> | null {
  if (!process.send || !process.env.CORRIDOR_SERVER_INDEX) return null;
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('the cluster primary did not answer in time'));
    }, CLUSTER_WAIT_MS);
    const onMessage = (msg: unknown) => {
      const m = msg as Answer;
      if (m?.corridorMetrics !== 'answer' || m.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (m.text !== undefined) resolve(m.text);
      else reject(new Error(m.error ?? 'no metrics'));
    };
    process.on('message', onMessage);
    process.send!({ corridorMetrics: 'request', id });
  });
}

export async function metricsAnswer(req: Request): Promise<Response> {
  const token = process.env.CORRIDOR_METRICS_TOKEN;
  if (!token) return problem(404, 'NOT_FOUND', 'Metrics are off: set CORRIDOR_METRICS_TOKEN to serve them');
  if (!presented(req, token))
    return problem(401, 'UNAUTHORIZED', 'Present the metrics token as Authorization: Bearer <token>', {
      'www-authenticate': 'Bearer realm="metrics"',
    });
  const registry = currentCorridor().metrics.registry;
  let text: string;
  try {
    text = (await fromPrimary()) ?? (await registry.metrics());
  } catch (err) {
    // This process's own figures, said to be partial, rather than nothing.
    const why = err instanceof Error ? err.message : String(err);
    text = `# this process only (pid ${process.pid}): ${why}\n${await registry.metrics()}`;
  }
  return new Response(text, { headers: { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' } });
}
