import { currencyInfo } from './currencies';

// Amounts as people type them ("1,000.00", "1000", "12.5") read into the currency's smallest unit,
// and the reverse for a form's initial value. Shared by every amount field of the console (and
// unit-tested here) so that a form never sends what the person did not mean: a comma only groups
// thousands (a comma used as a decimal point, "12,50", is refused rather than read as 1250), more
// decimals than the currency has are refused rather than rounded, and no float is involved.

export type AmountReading = { ok: true; minor: bigint } | { ok: false; message: string };

const MAX_DIGITS = 20; // the API's amounts are int64-sized; longer input is a typing error

export function decimalsOf(currency: string): number {
  return currencyInfo(currency)?.decimals ?? 2;
}

/** Reads a typed amount in major units of `currency` into minor units; says what is wrong if it cannot. */
export function parseMajorAmount(text: string, currency: string): AmountReading {
  const decimals = decimalsOf(currency);
  const t = text.trim().replace(/[\s\u00a0\u202f]/g, '');
  if (!t) return { ok: false, message: 'Enter an amount' };
  if (/^[-−]/.test(t)) return { ok: false, message: 'The amount cannot be negative' };
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/.exec(t);
  if (!m) {
    if (/^\d+,\d{1,2}$/.test(t)) return { ok: false, message: `Use a dot for decimals, as in ${example(currency)}` };
    return { ok: false, message: `Type the amount in ${currency}, as in ${example(currency)}` };
  }
  const whole = m[1].replace(/,/g, '');
  const fraction = m[2] ?? '';
  if (fraction.length > decimals)
    return {
      ok: false,
      message: decimals
        ? `${currency} has ${decimals} decimal${decimals === 1 ? '' : 's'}; this amount has ${fraction.length}`
        : `${currency} has no decimals`,
    };
  const digits = (whole + fraction.padEnd(decimals, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_DIGITS) return { ok: false, message: 'The amount is too large' };
  return { ok: true, minor: BigInt(digits) };
}

/** Minor units as a person would type them in major units: 100000n USD → "1,000.00". */
export function formatMajorInput(minor: bigint, currency: string): string {
  const decimals = decimalsOf(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${whole}${decimals ? `.${digits.slice(digits.length - decimals)}` : ''}`;
}

function example(currency: string): string {
  return formatMajorInput(10n ** BigInt(decimalsOf(currency) + 3), currency);
}
