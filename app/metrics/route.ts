import { metricsAnswer } from '@/lib/http/metrics';
import { logged } from '@/lib/http/request-log';

// GET /metrics – Prometheus metrics behind CORRIDOR_METRICS_TOKEN (lib/http/metrics.ts)
export const GET = logged('/metrics', metricsAnswer);
