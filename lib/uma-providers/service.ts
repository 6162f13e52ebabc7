import { currencyObject, isKnownCurrency } from '../core/currencies';
import { DomainError, fieldError } from '../core/errors';
import { pageOfList } from '../core/pagination';
import { umaProviders, type UmaProvider } from './catalog';
import type { UmaProviderQuery } from './schema';

function present(p: UmaProvider) {
  return {
    name: p.name,
    supportedRegions: p.supportedRegions,
    domain: p.domain,
    ...(p.logoUrl ? { logoUrl: p.logoUrl } : {}),
    supportedCurrencies: p.supportedCurrencies.map(currencyObject),
    allowListStatus: p.allowListed,
  };
}

export function listUmaProviders(q: UmaProviderQuery) {
  const country = q.countryCode?.trim().toUpperCase();
  const currency = q.currencyCode?.trim().toUpperCase();
  if (country !== undefined && !/^[A-Z]{2}$/.test(country)) {
    throw fieldError('countryCode', `${q.countryCode} is not an ISO 3166-1 alpha-2 country code`, {
      format: 'iso3166-1-alpha-2',
    });
  }
  if (currency !== undefined && !isKnownCurrency(currency)) {
    throw new DomainError('INVALID_CURRENCY', `${q.currencyCode} is not a currency this service carries`, {
      errors: [{ field: 'currencyCode', message: 'is not a known currency code' }],
    });
  }
  const includeBlocked = q.hasBlockedProviders ?? true;
  const sign = q.sortOrder === 'asc' ? 1 : -1;
  const list = umaProviders()
    .filter(
      (p) =>
        (!country || p.supportedRegions.includes(country)) &&
        (!currency || p.supportedCurrencies.includes(currency)) &&
        (includeBlocked || p.allowListed),
    )
    .sort((a, b) => sign * (a.listedAt.localeCompare(b.listedAt) || a.domain.localeCompare(b.domain)));
  const page = pageOfList(list, (p) => p.domain, q.limit, q.cursor);
  return { ...page, data: page.data.map(present) };
}
