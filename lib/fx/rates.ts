import { CURRENCY_CODES, currencyInfo } from '../core/currencies';
import { DomainError } from '../core/errors';
import { port, type AdapterStatus } from '../core/ports';

// FX rates come from a provider behind a port (lib/wiring.ts plugs one per instance): the sandbox
// table (lib/fx/sandbox-rates.ts) or an HTTP rates API (lib/fx/rates-http.ts), refreshed by the
// worker. Domain code reads rates only through midRate below, which asks the plugged provider for
// the figures in force — never a constant — so a quote locks a rate the provider gave, with the
// provider's timestamp and the figures' expiry. Rates are exact rationals: quote arithmetic
// never touches floating point. A production instance with no provider refuses to quote
// (QUOTE_REQUEST_FAILED) rather than price at a made-up rate.

/** How long the sandbox's figures hold, and how long a priced list of rates is cached. */
export const RATE_WINDOW_MS = 5 * 60_000;

export interface Rational {
  num: bigint;
  den: bigint;
}

/**
 * A decimal figure as an exact rational: "17.05", "0.0000155", or a JSON number's text such as
 * "1.55e-5". Null when it is not a plain positive decimal.
 */
export function decimalRational(s: string): Rational | null {
  const m = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(s.trim());
  if (!m) return null;
  const frac = m[2] ?? '';
  const exp = Number(m[3] ?? 0) - frac.length;
  if (Math.abs(exp) > 40) return null;
  const digits = BigInt(m[1] + frac);
  if (digits === 0n) return null;
  return reduce(exp >= 0 ? { num: digits * 10n ** BigInt(exp), den: 1n } : { num: digits, den: 10n ** BigInt(-exp) });
}

export function reduce(r: Rational): Rational {
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
  const g = gcd(r.num, r.den) || 1n;
  return { num: r.num / g, den: r.den / g };
}

/**
 * A rate as a JSON number with `digits` significant digits, for display: fixed decimals would
 * leave a weak currency's rate (USD per VND is 0.00004…) with only three or four digits.
 */
export function toSignificant(r: Rational, digits = 12): number {
  return Number((Number(r.num) / Number(r.den)).toPrecision(digits));
}

/**
 * Native tokens that pay blockchain network fees (lib/crypto/networks.ts): priced so network fees
 * convert at the same rates, though they are not currencies the service carries.
 */
export const FEE_TOKENS = ['ETH', 'SOL', 'POL', 'TRX', 'XPL'] as const;

/** The currencies the service carries, all of which it prices (GET /exchange-rates lists them). */
export const RATE_CURRENCIES: string[] = [...CURRENCY_CODES];

// The catalogue is the service's own (its currencies and the fee tokens), not any provider's
// figures: which of them can be priced now is the plugged provider's answer (midRate), so a
// production provider that leaves one out gets it refused by name, never priced from a table.
const PRICED = new Set<string>([...RATE_CURRENCIES, ...FEE_TOKENS]);

/** Whether the service prices `code` at all (its catalogue); whether it can now is the provider's say (midRate). */
export function isRateCurrency(code: string): boolean {
  return PRICED.has(code);
}

/** One provider's figures: units of each currency per 1 USD, as the provider published them. */
export interface RatesTable {
  /** Who published the figures ("sandbox", or the rates API's host). */
  provider: string;
  perUsd: ReadonlyMap<string, Rational>;
  /** The provider's own timestamp for the figures. */
  asOf: Date;
  /** After this no new price is made from these figures (the provider's next publication is due). */
  expiresAt: Date;
}

/** What a refresh made of the provider's answer. */
export type RefreshOutcome =
  { outcome: 'UPDATED' | 'CURRENT'; asOf: Date } | { outcome: 'FAILED'; reason: string; retryable: boolean };

export interface RatesSource {
  /**
   * The figures in force at `at`, from what the provider last gave (no I/O: quoting never waits
   * on the provider). Throws QUOTE_REQUEST_FAILED when there are none, or only expired ones.
   */
  table(at: Date): RatesTable;
  /** Asks the provider for its latest figures (the worker's rates job; retries with backoff). */
  refresh(at: Date): Promise<RefreshOutcome>;
  describe(): AdapterStatus;
  /** The figures last received, without asking the provider (for /metrics); absent: read table(). */
  figures?(): RatesTable | null;
}

/** What /metrics reports of the rates: whose, how old, and whether a quote can be priced now. */
export interface RatesStatus {
  /** The plugged adapter (its describe()), the same label whether or not figures are held. */
  provider: string;
  /** Seconds since the provider's timestamp of the figures held; null when none are held. */
  ageSeconds: number | null;
  quotable: boolean;
}

/** The rates' state at `at` (wall time), read without side effects on the provider. */
export function ratesStatus(source: RatesSource, at: Date): RatesStatus {
  const adapter = source.describe().adapter;
  let held: RatesTable | null;
  let quotable: boolean;
  if (source.figures) {
    held = source.figures();
    quotable = !!held && at.getTime() <= held.expiresAt.getTime();
  } else {
    try {
      held = source.table(at);
      quotable = true;
    } catch {
      held = null;
      quotable = false;
    }
  }
  return {
    provider: adapter,
    ageSeconds: held ? Math.max(0, (at.getTime() - held.asOf.getTime()) / 1000) : null,
    quotable,
  };
}

export const ratesSource = port<RatesSource>('fx.rates');

/** A refusal to price: the rates are not there (no provider, provider down, figures expired). */
export function ratesUnavailable(reason: string, message: string): DomainError {
  return new DomainError('QUOTE_REQUEST_FAILED', message, { reason }, { retryable: true, retryAfterSeconds: 60 });
}

/** Outside sandbox with no rates provider configured: every price is refused, visibly. */
export const unconnectedRates: RatesSource = {
  table() {
    throw ratesUnavailable(
      'RATES_PROVIDER_NOT_CONNECTED',
      'No exchange-rate provider is connected, so no rate can be quoted (the operator sets CORRIDOR_RATES_URL)',
    );
  },
  refresh: async () => ({ outcome: 'FAILED', reason: 'no exchange-rate provider is connected', retryable: false }),
  describe: () => ({
    party: 'exchange rates',
    adapter: 'none',
    connected: false,
    detail: 'quotes are refused — set CORRIDOR_RATES_URL to an exchange-rates API (docs/operations.md#exchange-rates)',
  }),
};

export interface RateSnapshot {
  /** Receiving major units per sending major unit, mid-market. */
  rate: Rational;
  /** The provider's timestamp for the figures the rate comes from. */
  updatedAt: Date;
  /** When those figures expire. */
  expiresAt: Date;
  provider: string;
}

/** The mid-market rate from -> to in a provider's table. */
export function rateIn(table: RatesTable, from: string, to: string): RateSnapshot {
  const fromUsd = table.perUsd.get(from);
  const toUsd = table.perUsd.get(to);
  if (!fromUsd || !toUsd)
    throw ratesUnavailable(
      'RATE_NOT_PUBLISHED',
      `The exchange-rate provider (${table.provider}) publishes no rate for ${fromUsd ? to : from}`,
    );
  // (to per USD) / (from per USD).
  const rate =
    from === to ? { num: 1n, den: 1n } : reduce({ num: toUsd.num * fromUsd.den, den: toUsd.den * fromUsd.num });
  return { rate, updatedAt: table.asOf, expiresAt: table.expiresAt, provider: table.provider };
}

/** Mid-market rate from -> to at time `at`, from the plugged provider's figures in force then. */
export function midRate(from: string, to: string, at: Date): RateSnapshot {
  return rateIn(ratesSource.get().table(at), from, to);
}

/** The same rate expressed between smallest units (cents per cent, etc.). */
export function minorRate(from: string, to: string, rate: Rational): Rational {
  const dFrom = BigInt(currencyInfo(from)?.decimals ?? 2);
  const dTo = BigInt(currencyInfo(to)?.decimals ?? 2);
  return dTo >= dFrom
    ? reduce({ num: rate.num * 10n ** (dTo - dFrom), den: rate.den })
    : reduce({ num: rate.num, den: rate.den * 10n ** (dFrom - dTo) });
}
