import { newId } from '../../core/ids';
import { addSeconds, now } from '../../core/clock';
import { db, type Prisma } from '../../core/db';
import { invalidInput, notFound } from '../../core/errors';
import { currencyObject } from '../../core/currencies';
import * as customers from '../../customers/repository';
import { settingsOf } from '../../platform/settings';
import { midRate, type Rational } from '../../fx/rates';
import { exchangeRateOf } from '../../fx/pricing';
import { externalRoute, umaRoute, type Route } from '../routing';
import { mergeFields, requiredPayerData } from '../payer-data';
import { requireUma } from './address';
import * as repo from './repository';

// Receiver lookups (GET /receiver/uma/{address}, GET /receiver/external-account/{id}): resolve
// where a payment would land, what the receiver accepts and what it needs to know about the
// payer. The result is stored as a Lookup the quote refers to (lookupId).
const LOOKUP_TTL_SECONDS = 15 * 60;

export { findLookup } from './repository';

async function senderCurrency(platformId: string, customerId: string | undefined): Promise<string> {
  if (customerId) {
    const c = await customers.findById(platformId, customerId, db());
    if (!c || c.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${customerId}`);
    if (c.currencies[0]) return c.currencies[0];
  }
  return (await settingsOf(platformId, db())).currencyCodes[0] ?? 'USD';
}

/**
 * What the receiver accepts, each with the provider's estimated rate from the sender's currency.
 * A currency the rates provider does not price now is left out (a quote in it would be refused
 * the same way); when none is priced the lookup is refused with the provider's reason
 * (QUOTE_REQUEST_FAILED) — never listed at a made-up 1:1.
 */
async function currencyPreferences(platformId: string, from: string, currencies: string[]) {
  const at = now();
  const settings = await settingsOf(platformId, db());
  const refusals: unknown[] = [];
  const priced = currencies.flatMap((code) => {
    let rate: Rational;
    try {
      rate = code === from ? { num: 1n, den: 1n } : midRate(from, code, at).rate;
    } catch (err) {
      refusals.push(err);
      return [];
    }
    const limit = settings.currencies.get(code);
    return [
      {
        currency: currencyObject(code),
        // Sending units per receiving unit, like a quote's exchangeRate; not locked.
        estimatedExchangeRate: exchangeRateOf(rate),
        min: limit?.minAmount ?? 1n,
        max: limit?.maxAmount ?? 1_000_000_000n,
      },
    ];
  });
  if (!priced.length && refusals.length) throw refusals[0];
  return priced;
}

async function store(
  platformId: string,
  customerId: string | undefined,
  kind: 'UMA' | 'EXTERNAL_ACCOUNT',
  target: string,
  route: Route,
  supported: unknown[],
  required: unknown[],
) {
  const at = now();
  const row = await repo.insertLookup(
    {
      id: newId('Lookup'),
      platformId,
      customerId: customerId ?? null,
      kind,
      target,
      supportedCurrencies: JSON.parse(
        JSON.stringify(supported, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
      ) as Prisma.InputJsonValue,
      requiredPayerDataFields: required as Prisma.InputJsonValue,
      resolution: route as unknown as Prisma.InputJsonValue,
      createdAt: at,
      expiresAt: addSeconds(at, LOOKUP_TTL_SECONDS),
    },
    db(),
  );
  return row.id;
}

/** Who would pay: senderUmaAddress or customerId, each optional only when the other is given (reference). */
function requireSender(q: { customerId?: string; senderUmaAddress?: string }) {
  if (!q.customerId && !q.senderUmaAddress) {
    throw invalidInput('Give the sender: senderUmaAddress or customerId', [
      { field: 'customerId', message: 'customerId or senderUmaAddress is required' },
    ]);
  }
  if (q.senderUmaAddress) requireUma(q.senderUmaAddress, 'senderUmaAddress');
}

export async function lookupUma(
  platformId: string,
  address: string,
  q: { customerId?: string; senderUmaAddress?: string },
) {
  const uma = requireUma(address, 'receiverUmaAddress');
  requireSender(q);
  const route = await umaRoute(uma, db());
  const from = await senderCurrency(platformId, q.customerId);
  const currencies = route.kind === 'UMA_CUSTOMER' ? route.currencies : [route.currency];
  const supportedCurrencies = await currencyPreferences(platformId, from, currencies);
  // The sender picks the currency only in the quote, and the quote requires every field listed
  // here, so a receiver taking several currencies lists what any of them needs.
  const requiredPayerDataFields = mergeFields(
    await Promise.all(currencies.map((currency) => requiredPayerData({ ...route, currency } as Route, db()))),
  );
  const lookupId = await store(
    platformId,
    q.customerId,
    'UMA',
    uma.address,
    route,
    supportedCurrencies,
    requiredPayerDataFields,
  );
  return { receiverUmaAddress: uma.address, supportedCurrencies, requiredPayerDataFields, lookupId };
}

export async function lookupExternalAccount(
  platformId: string,
  accountId: string,
  q: { customerId?: string; senderUmaAddress?: string },
) {
  requireSender(q);
  const route = await externalRoute(platformId, accountId, undefined, db());
  const from = await senderCurrency(platformId, q.customerId);
  const supportedCurrencies = await currencyPreferences(platformId, from, [route.currency]);
  const requiredPayerDataFields = await requiredPayerData(route, db());
  const lookupId = await store(
    platformId,
    q.customerId,
    'EXTERNAL_ACCOUNT',
    accountId,
    route,
    supportedCurrencies,
    requiredPayerDataFields,
  );
  return { accountId, supportedCurrencies, requiredPayerDataFields, lookupId };
}
