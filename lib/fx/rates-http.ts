import { errorText, log } from '../core/log';
import { decimalRational, ratesUnavailable, reduce, type RatesSource, type RatesTable, type Rational } from './rates';

// Exchange rates from an HTTP rates API in the shape Open Exchange Rates made common (its
// latest.json; also served by exchangerate.host, currencyapi-style proxies and most self-hosted
// feeds). Documented in docs/operations.md (Exchange rates):
//
//   GET {CORRIDOR_RATES_URL}          (the full URL, with any app_id / access key in its query)
//   Authorization: Bearer {CORRIDOR_RATES_TOKEN}   (only when set)
//   200 {"timestamp": 1764288000, "base": "USD", "rates": {"EUR": 0.92, "MXN": 17.05, ...}}
//
// `timestamp` is the provider's time for the figures (Unix seconds), `rates` units of each
// currency per 1 `base`. A base other than USD is converted through the base's own USD rate.
// The worker refreshes (lib/fx/jobs.ts) every CORRIDOR_RATES_REFRESH_SECONDS; each fetch has a
// timeout and is retried with backoff when the provider is down or busy (network error, 5xx,
// 429). The figures are cached in the process with the provider's timestamp and are quoted until
// CORRIDOR_RATES_MAX_AGE_SECONDS after it; older figures are refused, not quoted (a provider that
// stopped updating must not go on pricing transfers). A provider answer older than what is cached
// never replaces it.
type Env = Record<string, string | undefined>;

export interface HttpRatesOptions {
  url: string;
  token?: string;
  /** How long after the provider's timestamp its figures are quoted from. */
  maxAgeMs: number;
  /** How often the worker asks for new figures. */
  refreshEveryMs: number;
  /** Per-request limit. */
  timeoutMs: number;
  /** Fetch attempts per refresh (the first and the retries). */
  attempts: number;
  /** Backoff before the first retry, doubling after each. */
  backoffMs: number;
}

/** After a failed refresh, the worker asks again this soon (or at the refresh interval, if shorter). */
const FAILED_RETRY_MS = 30_000;

/** A process whose worker asked for a refresh this recently has one (its passes run every second or so). */
const WORKER_SEEN_MS = 60_000;

const DEFAULTS = { maxAgeMs: 3_600_000, refreshEveryMs: 300_000, timeoutMs: 5_000, attempts: 3, backoffMs: 500 };

class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Reads a provider answer into a table, or says why it cannot be used. */
export function parseRates(body: unknown, provider: string, maxAgeMs: number): RatesTable {
  const b = body as { timestamp?: unknown; base?: unknown; rates?: unknown };
  if (!b || typeof b !== 'object') throw new ProviderError('the answer is not a JSON object', false);
  if (typeof b.timestamp !== 'number' || !Number.isFinite(b.timestamp) || b.timestamp <= 0)
    throw new ProviderError('the answer has no numeric timestamp (Unix seconds)', false);
  const base = typeof b.base === 'string' ? b.base.toUpperCase() : 'USD';
  if (!b.rates || typeof b.rates !== 'object') throw new ProviderError('the answer has no rates object', false);
  const perBase = new Map<string, Rational>();
  for (const [code, value] of Object.entries(b.rates as Record<string, unknown>)) {
    // Figures with no exact decimal reading (negative, zero, not a number) are left out: a pair
    // that needs one is then refused when quoted.
    const r = typeof value === 'number' && Number.isFinite(value) ? decimalRational(String(value)) : null;
    if (r) perBase.set(code.toUpperCase(), r);
  }
  perBase.set(base, { num: 1n, den: 1n });
  const usd = perBase.get('USD');
  if (!usd) throw new ProviderError(`the answer (base ${base}) has no USD rate to convert through`, false);
  const perUsd = new Map<string, Rational>();
  // units per USD = (units per base) / (USD per base)
  for (const [code, r] of perBase) perUsd.set(code, reduce({ num: r.num * usd.den, den: r.den * usd.num }));
  const asOf = new Date(b.timestamp * 1000);
  return { provider, perUsd, asOf, expiresAt: new Date(asOf.getTime() + maxAgeMs) };
}

/** One request to the provider, read into a table (or a ProviderError saying whether to retry). */
async function fetchOnce(o: HttpRatesOptions, provider: string): Promise<RatesTable> {
  let res: Response;
  try {
    res = await fetch(o.url, {
      headers: { accept: 'application/json', ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) },
      signal: AbortSignal.timeout(o.timeoutMs),
    });
  } catch (err) {
    throw new ProviderError(`unreachable: ${errorText(err)}`, true);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProviderError(`HTTP ${res.status}`, res.status >= 500 || res.status === 429 || res.status === 408);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ProviderError('the answer is not JSON', false);
  }
  return parseRates(body, provider, o.maxAgeMs);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function httpRates(options: Partial<HttpRatesOptions> & { url: string }): RatesSource & {
  /** The cached figures, if any (diagnostics and tests). */
  cached(): RatesTable | null;
  /** Asks the provider now, whatever the interval (joins a refresh under way). */
  refreshNow(): ReturnType<RatesSource['refresh']>;
} {
  const o: HttpRatesOptions = { ...DEFAULTS, url: options.url };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) Object.assign(o, { [k]: v });
  const provider = new URL(o.url).host;
  let cached: RatesTable | null = null;
  let lastAttempt = 0;
  let lastError: string | null = null;
  let inflight: Promise<Awaited<ReturnType<RatesSource['refresh']>>> | null = null;

  async function refreshNow(): Promise<Awaited<ReturnType<RatesSource['refresh']>>> {
    lastAttempt = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const table = await fetchOnce(o, provider);
        lastError = null;
        if (cached && table.asOf.getTime() <= cached.asOf.getTime()) return { outcome: 'CURRENT', asOf: cached.asOf };
        cached = table;
        return { outcome: 'UPDATED', asOf: table.asOf };
      } catch (err) {
        const e = err instanceof ProviderError ? err : new ProviderError(errorText(err), false);
        if (e.retryable && attempt < o.attempts) {
          await sleep(o.backoffMs * 2 ** (attempt - 1));
          continue;
        }
        lastError = e.message;
        log().warn({ provider, attempts: attempt, err: e.message }, 'exchange-rate refresh failed');
        return { outcome: 'FAILED', reason: e.message, retryable: e.retryable };
      }
    }
  }

  /** Whether the provider is due to be asked: at the refresh interval, sooner after a failure. */
  function due(): boolean {
    const every = lastError || !cached ? Math.min(o.refreshEveryMs, FAILED_RETRY_MS) : o.refreshEveryMs;
    return !lastAttempt || Date.now() - lastAttempt >= every;
  }

  /** Whether this process's worker refreshes the figures (it calls refresh() on every pass). */
  let workerCalledAt = 0;
  const workerDriven = () => Date.now() - workerCalledAt < WORKER_SEEN_MS;

  /** One refresh at a time in a process; callers share the one under way. */
  function refresh(): ReturnType<RatesSource['refresh']> {
    inflight ??= refreshNow().finally(() => (inflight = null));
    return inflight;
  }

  return {
    table(at) {
      if (!cached) {
        // A process that runs no worker still gets figures: the first price asks for them.
        if (due()) void refresh();
        throw ratesUnavailable(
          'RATES_NOT_YET_FETCHED',
          `No exchange rates from ${provider} yet${lastError ? ` (last attempt: ${lastError})` : ''}; try again shortly`,
        );
      }
      if (at.getTime() > cached.expiresAt.getTime()) {
        if (due()) void refresh();
        throw ratesUnavailable(
          'RATES_STALE',
          `The exchange rates from ${provider} are from ${cached.asOf.toISOString()}, too old to quote from${lastError ? ` (last refresh: ${lastError})` : ''}`,
        );
      }
      // A server that runs no worker (CORRIDOR_WORKER=off beside a worker process) keeps its own
      // figures current from its prices: past the refresh interval, one refresh in the background
      // while this price uses the figures it has, still within their maximum age.
      if (!workerDriven() && due()) void refresh();
      return cached;
    },
    async refresh() {
      workerCalledAt = Date.now();
      // The worker calls this on every pass; the provider is asked once per refresh interval,
      // and after a failed refresh again within half a minute at most.
      if (!due())
        return cached && !lastError
          ? { outcome: 'CURRENT', asOf: cached.asOf }
          : { outcome: 'FAILED', reason: lastError ?? 'a refresh is under way', retryable: true };
      return refresh();
    },
    cached: () => cached,
    figures: () => cached,
    refreshNow: refresh,
    describe: () => ({
      party: 'exchange rates',
      adapter: `HTTP rates API (${provider})`,
      connected: true,
      detail: `refreshed every ${Math.round(o.refreshEveryMs / 1000)} s, quoted up to ${Math.round(o.maxAgeMs / 1000)} s after the provider's timestamp`,
    }),
  };
}

/** A positive number of seconds from a variable's value, in milliseconds (undefined when unset). */
function seconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds`);
  return n * 1000;
}

/** The HTTP rates provider the environment configures, or null when CORRIDOR_RATES_URL is unset. */
export function httpRatesFromEnv(env: Env): ReturnType<typeof httpRates> | null {
  const url = env.CORRIDOR_RATES_URL;
  if (!url) return null;
  return httpRates({
    url,
    token: env.CORRIDOR_RATES_TOKEN || undefined,
    maxAgeMs: seconds(env.CORRIDOR_RATES_MAX_AGE_SECONDS, 'CORRIDOR_RATES_MAX_AGE_SECONDS'),
    refreshEveryMs: seconds(env.CORRIDOR_RATES_REFRESH_SECONDS, 'CORRIDOR_RATES_REFRESH_SECONDS'),
  });
}
