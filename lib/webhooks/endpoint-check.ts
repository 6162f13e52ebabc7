import { fieldError } from '../core/errors';
import { checkEndpoint, TargetRefused } from './target';

/**
 * PATCH /config: an endpoint is refused when it is configured, not only at delivery, if it is not
 * a public http(s) URL (CORRIDOR_WEBHOOK_ALLOW_PRIVATE=1 lifts the address rule for development).
 * The message names the host as configured, never what it resolved to.
 */
export async function refuseNonPublicEndpoint(url: string): Promise<void> {
  try {
    await checkEndpoint(url);
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    throw fieldError('webhookEndpoint', `webhookEndpoint is refused: ${err.message}`, { format: 'uri' });
  }
}
