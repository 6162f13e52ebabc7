import { CURRENCY_CODES, currencyInfo } from '../core/currencies';

/** The currencies grouped by their number of decimals: an amount typed without a code reads once per group. */
export const TABLE_CURRENCIES: { decimals: number; currencies: string[] }[] = [
  ...new Set(CURRENCY_CODES.map((c) => currencyInfo(c)!.decimals)),
].map((decimals) => ({ decimals, currencies: CURRENCY_CODES.filter((c) => currencyInfo(c)!.decimals === decimals) }));
