import { now } from '../core/clock';
import { errorText, log } from '../core/log';
import type { Sweep } from '../jobs/registry';
import { ratesSource } from './rates';

/**
 * The worker's exchange-rates refresh (a sweep, run on every job pass): the provider adapter asks
 * its API when its refresh interval has passed (lib/fx/rates-http.ts) and does nothing otherwise.
 * Not awaited: a provider that is down is retried with backoff inside the adapter, and must not
 * hold back the timed work of the same pass (settlements, expiries) while it does.
 */
export const refreshRates: Sweep = async () => {
  ratesSource
    .get()
    .refresh(now())
    .catch((err) => log().warn({ err: errorText(err) }, 'exchange-rate refresh failed'));
  return 0;
};
