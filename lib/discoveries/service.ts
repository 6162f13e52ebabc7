import { isKnownCurrency } from '../core/currencies';
import { DomainError, fieldError } from '../core/errors';
import { INSTITUTIONS } from './catalog';
import type { DiscoveryQuery } from './schema';

// GET /discoveries: the receiving institutions of a corridor. A well-formed code of a country or
// currency the catalog has nothing for is an empty list; a malformed or unassigned code is a 400.
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  const name = regionNames.of(code);
  return name !== undefined && name !== 'Unknown Region';
}

export function listDiscoveries(q: DiscoveryQuery) {
  const country = q.country?.trim().toUpperCase();
  const currency = q.currency?.trim().toUpperCase();
  if (country !== undefined && !isCountryCode(country)) {
    throw fieldError('country', `${q.country} is not an ISO 3166-1 alpha-2 country code`, {
      format: 'iso3166-1-alpha-2',
    });
  }
  if (currency !== undefined && !isKnownCurrency(currency)) {
    throw new DomainError('INVALID_CURRENCY', `${q.currency} is not a currency this service carries`, {
      errors: [{ field: 'currency', message: 'is not a known currency code' }],
    });
  }
  return {
    data: INSTITUTIONS.filter((i) => (!country || i.country === country) && (!currency || i.currency === currency)).map(
      (i) => ({
        bankName: i.bankName,
        displayName: i.displayName,
        country: i.country,
        currency: i.currency,
      }),
    ),
  };
}
