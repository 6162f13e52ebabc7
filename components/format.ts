import { currencyInfo } from '@/lib/core/currencies';

// Presentation helpers shared by the console (server components) and the wallet (client
// components). Amounts arrive in the smallest unit (bigint, or a decimal string from JSON) and
// are shown in the currency's own decimals, never through a float.
export function formatAmount(amount: bigint | number | string | null | undefined, currency: string | null | undefined) {
  if (amount === null || amount === undefined || !currency) return '—';
  let units: bigint;
  try {
    units = BigInt(amount);
  } catch {
    return `${amount} ${currency}`;
  }
  const decimals = currencyInfo(currency)?.decimals ?? 2;
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '−' : ''}${whole}${fraction} ${currency}`;
}

/** Parses a decimal amount typed by a person ("12.5") into the smallest unit; null when malformed. */
export function parseAmount(text: string, currency: string): bigint | null {
  const decimals = currencyInfo(currency)?.decimals ?? 2;
  const m = /^\s*(\d{1,15})(?:[.,](\d*))?\s*$/.exec(text);
  if (!m || (m[2] ?? '').length > decimals) return null;
  return BigInt(m[1] + (m[2] ?? '').padEnd(decimals, '0'));
}

export function shortId(id: string | null | undefined): string {
  if (!id) return '—';
  const [kind, rest] = id.includes(':') ? id.split(':', 2) : ['', id];
  return kind ? `${kind}:${rest.slice(0, 8)}…` : `${rest.slice(0, 8)}…`;
}

/** Status → badge colour class (Tailwind). */
export function statusTone(status: string | null | undefined): string {
  const s = (status ?? '').toUpperCase();
  if (['COMPLETED', 'APPROVED', 'DELIVERED', 'ACTIVE', 'VERIFIED', 'SUCCEEDED'].includes(s))
    return 'bg-emerald-100 text-emerald-900';
  if (['FAILED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'CLOSED', 'FROZEN', 'REFUNDED', 'RETURNED'].includes(s))
    return 'bg-red-100 text-red-900';
  if (['PENDING', 'PROCESSING', 'PENDING_MANUAL_REVIEW', 'RESOLVE_ERRORS', 'CREATED', 'UNVERIFIED'].includes(s))
    return 'bg-amber-100 text-amber-900';
  return 'bg-slate-200 text-slate-900';
}

/**
 * A rate as people read it, "1 USD = 17.06 MXN", from the interface's exchangeRate (sending major
 * units per receiving major unit). Four significant digits, at least two decimals.
 */
export function formatRate(exchangeRate: number | null | undefined, from: string, to: string): string {
  if (!exchangeRate || !Number.isFinite(exchangeRate) || exchangeRate <= 0) return '—';
  const perOne = 1 / exchangeRate;
  const digits = perOne >= 1000 ? 2 : Math.max(2, 4 - Math.floor(Math.log10(perOne)) - 1);
  return `1 ${from} = ${perOne.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: Math.min(digits, 8) })} ${to}`;
}
