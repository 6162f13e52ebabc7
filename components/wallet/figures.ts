import { currencyInfo } from '@/lib/core/currencies';
import { formatAmount } from '../format';

// The figures the wallet shows a person, computed exactly: amounts from smallest units (bigint)
// and rates from the quote's decimal text, never through a float. The interface's `exchangeRate`
// is sending units per receiving unit (0.0586 USD per MXN); people read a rate the other way
// round ("1 USD = 17.059 MXN"), so the page shows its inverse first and the rate itself on tap.

/** An amount in major units with the currency's decimals, its symbol and its code: "$1,234.50 USD". */
export function money(amount: bigint | number | string | null | undefined, currency: string | null | undefined) {
  const plain = formatAmount(amount, currency);
  if (!currency || plain === '—') return plain;
  const symbol = currencyInfo(currency)?.symbol;
  if (!symbol || symbol === currency) return plain;
  return plain.startsWith('−') ? `−${symbol}${plain.slice(1)}` : `${symbol}${plain}`;
}

interface Decimal {
  /** value = digits / 10^scale (scale may be negative). */
  digits: bigint;
  scale: number;
}

/** A positive decimal as JSON wrote it ("0.0586199578153", "1.5e-7"); null when it is not one. */
export function parseDecimal(value: number | string | bigint): Decimal | null {
  const text = typeof value === 'number' ? String(value) : String(value).trim();
  const m = /^(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return null;
  const fraction = m[2] ?? '';
  const digits = BigInt(m[1] + fraction);
  if (digits === 0n) return null;
  return { digits, scale: fraction.length - Number(m[3] ?? 0) };
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** num/den rounded half up to `significant` digits, as plain decimal text without trailing zeros. */
export function significantText(num: bigint, den: bigint, significant = 6): string {
  // Find k with 10^(s-1) <= num·10^k/den < 10^s, then round num·10^k/den to an integer.
  const scaled = (k: number) => (k >= 0 ? [num * pow10(k), den] : [num, den * pow10(-k)]);
  const floorAt = (k: number) => {
    const [a, b] = scaled(k);
    return a / b;
  };
  let k = 0;
  while (floorAt(k) >= pow10(significant)) k--;
  while (floorAt(k) < pow10(significant - 1)) k++;
  const [a, b] = scaled(k);
  const n = (2n * a + b) / (2n * b);
  if (k <= 0) return (n * pow10(-k)).toString();
  const padded = n.toString().padStart(k + 1, '0');
  const whole = padded.slice(0, padded.length - k);
  const frac = padded.slice(padded.length - k).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/**
 * The rate as people read it: how much of the receiving currency one unit of the sending currency
 * buys (the inverse of `exchangeRate`), and the other way round. Six significant digits.
 */
export function rateTexts(exchangeRate: number | string, sending: string, receiving: string) {
  const d = parseDecimal(exchangeRate);
  if (!d) return null;
  // exchangeRate = digits / 10^scale sending per receiving; its inverse is 10^scale / digits.
  const [rNum, rDen] = d.scale >= 0 ? [d.digits, pow10(d.scale)] : [d.digits * pow10(-d.scale), 1n];
  return {
    forward: `1 ${sending} = ${significantText(rDen, rNum)} ${receiving}`,
    inverse: `1 ${receiving} = ${significantText(rNum, rDen)} ${sending}`,
  };
}

type Amount = number | string | bigint | null | undefined;
/** The fields of a quote (as the API answers it) that the review screen states. */
export interface QuoteJson {
  sendingCurrency?: { code: string };
  receivingCurrency?: { code: string };
  totalSendingAmount?: Amount;
  totalReceivingAmount?: Amount;
  feesIncluded?: Amount;
  platformFeesIncluded?: Amount;
  exchangeRate: number | string;
  rateDetails?: {
    gridApiFixedFee?: Amount;
    gridApiVariableFeeAmount?: Amount;
    gridApiVariableFeeRate?: number | string;
    counterpartyFixedFee?: Amount;
  } | null;
}

export interface FeeLine {
  label: string;
  text: string;
}

const big = (v: unknown) => (v === undefined || v === null ? 0n : BigInt(v as string | number | bigint));

/**
 * Everything the review screen states about a quote, each figure from the quote's own fields:
 * what leaves the wallet, each fee, what is converted, what arrives (in the receiving currency)
 * and the rate.
 */
export function quoteFigures(q: QuoteJson) {
  const from = q.sendingCurrency?.code ?? '';
  const to = q.receivingCurrency?.code ?? '';
  const total = big(q.totalSendingAmount);
  const fees = big(q.feesIncluded);
  const platform = big(q.platformFeesIncluded);
  const details = q.rateDetails ?? {};
  const lines: FeeLine[] = [];
  const service = fees - platform;
  if (service > 0n || fees === 0n) {
    const parts: string[] = [];
    if (big(details.gridApiFixedFee) > 0n) parts.push(`${money(details.gridApiFixedFee, from)} fixed`);
    if (big(details.gridApiVariableFeeAmount) > 0n) {
      const pct = parseDecimal(details.gridApiVariableFeeRate ?? 0);
      const percent = pct ? significantText(pct.digits * 100n, pow10(Math.max(pct.scale, 0)), 4) : '0';
      parts.push(`${percent}% (${money(details.gridApiVariableFeeAmount, from)})`);
    }
    lines.push({
      label: 'Service fee',
      text: money(service, from) + (parts.length > 1 ? ` = ${parts.join(' + ')}` : ''),
    });
  }
  if (platform > 0n) lines.push({ label: 'Platform fee', text: money(platform, from) });
  if (big(details.counterpartyFixedFee) > 0n)
    lines.push({ label: 'Receiving institution fee', text: money(details.counterpartyFixedFee, to) });
  return {
    send: money(total, from),
    fees: lines,
    totalFees: money(fees, from),
    converted: money(total - fees, from),
    receive: money(q.totalReceivingAmount, to),
    rate: rateTexts(q.exchangeRate, from, to),
  };
}
