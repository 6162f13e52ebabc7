import { CURRENCY_CODES, currencyInfo } from '../core/currencies';

// FX rates behind a port. The sandbox source quotes every currency against USD from a table of
// reference mid-market rates and moves them a little every five minutes, deterministically, so a
// rate is stable for its five-minute cache window and different in the next (like a real cached
// feed). Rates are exact rationals: quote arithmetic never touches floating point.
export const RATE_WINDOW_MS = 5 * 60_000;

/** Units of the currency per 1 USD, in major units, as a decimal string (exact). */
const USD_MID: Record<string, string> = {
  USD: '1',
  SLV: '1',
  USDC: '1',
  USDT: '1',
  EUR: '0.92',
  GBP: '0.79',
  CAD: '1.36',
  MXN: '17.05',
  BRL: '5.05',
  COP: '3950',
  INR: '83.2',
  PHP: '56.3',
  NGN: '1550',
  KES: '129.5',
  GHS: '15.2',
  ZAR: '18.6',
  EGP: '48.5',
  AED: '3.6725',
  BDT: '117.5',
  BWP: '13.6',
  CNY: '7.24',
  DKK: '6.87',
  GTQ: '7.78',
  HKD: '7.82',
  HTG: '132.5',
  IDR: '15750',
  JMD: '156.2',
  MWK: '1735',
  MYR: '4.72',
  PKR: '278.5',
  RWF: '1310',
  SGD: '1.35',
  THB: '36.4',
  TZS: '2590',
  UGX: '3780',
  VND: '24850',
  XAF: '603.5',
  XOF: '603.5',
  ZMW: '26.4',
  BTC: '0.0000155',
  // Native tokens that pay blockchain network fees (lib/crypto): priced here so network fees
  // convert at the same rates; they are not currencies the service carries (RATE_CURRENCIES).
  ETH: '0.0003125',
  SOL: '0.00625',
  POL: '2.5',
  TRX: '4',
  XPL: '2',
};

export interface Rational {
  num: bigint;
  den: bigint;
}

function decimal(s: string): Rational {
  const [whole, frac = ''] = s.split('.');
  return { num: BigInt(whole + frac), den: 10n ** BigInt(frac.length) };
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

export function isRateCurrency(code: string): boolean {
  return code in USD_MID;
}

/** Deterministic drift of at most ±0.25% per five-minute window, in parts per million. */
function driftPpm(code: string, window: number): bigint {
  if (code === 'USD' || code === 'USDC' || code === 'USDT' || code === 'SLV') return 0n;
  let h = 2166136261;
  for (const ch of `${code}:${window}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return BigInt((h % 5001) - 2500);
}

export interface RateSnapshot {
  /** Receiving major units per sending major unit, mid-market. */
  rate: Rational;
  updatedAt: Date;
  window: number;
}

/** Mid-market rate from -> to at time `at` (the five-minute window containing it). */
export function midRate(from: string, to: string, at: Date): RateSnapshot {
  const window = Math.floor(at.getTime() / RATE_WINDOW_MS);
  const fromUsd = decimal(USD_MID[from]);
  const toUsd = decimal(USD_MID[to]);
  if (!USD_MID[from] || !USD_MID[to]) throw new Error(`no rate for ${from}/${to}`);
  const df = 1_000_000n + driftPpm(from, window);
  const dt = 1_000_000n + driftPpm(to, window);
  // (to per USD) / (from per USD), each with its drift.
  const rate = reduce({ num: toUsd.num * fromUsd.den * dt, den: toUsd.den * fromUsd.num * df });
  return { rate: from === to ? { num: 1n, den: 1n } : rate, updatedAt: new Date(window * RATE_WINDOW_MS), window };
}

/** The same rate expressed between smallest units (cents per cent, etc.). */
export function minorRate(from: string, to: string, rate: Rational): Rational {
  const dFrom = BigInt(currencyInfo(from)?.decimals ?? 2);
  const dTo = BigInt(currencyInfo(to)?.decimals ?? 2);
  return dTo >= dFrom
    ? reduce({ num: rate.num * 10n ** (dTo - dFrom), den: rate.den })
    : reduce({ num: rate.num, den: rate.den * 10n ** (dFrom - dTo) });
}

export const RATE_CURRENCIES = CURRENCY_CODES.filter((c) => c in USD_MID);
