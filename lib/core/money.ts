import { currencyAmount } from './currencies';

/**
 * An amount of money: a whole number of the currency's smallest unit (cents, satoshis...) and the
 * currency it counts. Amounts are bigint end to end (lossless JSON at the edge); arithmetic across
 * currencies is a programming error, not a rounding question, so it throws.
 */
export interface Amount {
  amount: bigint;
  currency: string;
}

export const amountOf = (amount: bigint, currency: string): Amount => ({ amount, currency });

function same(a: Amount, b: Amount): void {
  if (a.currency !== b.currency) throw new Error(`cannot combine ${a.currency} with ${b.currency}`);
}

export function add(a: Amount, b: Amount): Amount {
  same(a, b);
  return { amount: a.amount + b.amount, currency: a.currency };
}

export function subtract(a: Amount, b: Amount): Amount {
  same(a, b);
  return { amount: a.amount - b.amount, currency: a.currency };
}

/** Sums amounts per currency (a posting's legs must sum to zero in each). */
export function totalsByCurrency(amounts: Amount[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const a of amounts) out.set(a.currency, (out.get(a.currency) ?? 0n) + a.amount);
  return out;
}

/** The wire shape of the reference's `CurrencyAmount`: the amount with its currency object. */
export const toCurrencyAmount = (a: Amount) => currencyAmount(a.amount, a.currency);
