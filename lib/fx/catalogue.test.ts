import { expect, it } from 'vitest';
import { CURRENCY_CODES } from '@/lib/core/currencies';
import { FEE_TOKENS, isRateCurrency, RATE_CURRENCIES } from './rates';
import { SANDBOX_USD_MID } from './reference-rates';

// Which currencies the service prices is its own catalogue (the currencies it carries and the
// network fee tokens), not the sandbox's table of figures: in production the provider's figures
// decide what can be priced now, and one it leaves out is refused by name (rates-http.test.ts).

it('the catalogue is the service currencies and the fee tokens', () => {
  for (const code of CURRENCY_CODES) expect(isRateCurrency(code), code).toBe(true);
  for (const code of FEE_TOKENS) expect(isRateCurrency(code), code).toBe(true);
  expect(RATE_CURRENCIES).toEqual(CURRENCY_CODES);
  expect(isRateCurrency('XYZ')).toBe(false);
  expect(isRateCurrency('constructor')).toBe(false);
});

it('sandbox unchanged: its table prices exactly the catalogue', () => {
  expect(Object.keys(SANDBOX_USD_MID).sort()).toEqual([...RATE_CURRENCIES, ...FEE_TOKENS].sort());
});

it('the catalogue does not follow the sandbox figures: a figure missing there leaves the currency supported', () => {
  const figure = SANDBOX_USD_MID.KES;
  delete SANDBOX_USD_MID.KES;
  try {
    expect(isRateCurrency('KES')).toBe(true);
  } finally {
    SANDBOX_USD_MID.KES = figure;
  }
});
