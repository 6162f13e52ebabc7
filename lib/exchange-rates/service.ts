import { now } from '../core/clock';
import { currencyObject } from '../core/currencies';
import { DomainError, type FieldError } from '../core/errors';
import { feeSchedule } from '../fx/fees';
import { exchangeRateOf, feesFor, price, type FeeSchedule } from '../fx/pricing';
import { defaultMaxAmount } from '../payments/limits';
import { midRate, RATE_CURRENCIES, RATE_WINDOW_MS, rateIn, ratesSource } from '../fx/rates';
import { settingsOf } from '../platform/settings';
import { defaultRail } from '../rails/catalog';
import { ttlCache } from '../core/cache';
import { DEFAULT_SENDING_AMOUNT, type ExchangeRateQuery } from './schema';
import { db } from '@/lib/core/db';

// GET /exchange-rates: the platform's view of every corridor between the currencies the service
// carries, priced with the same rate source (lib/fx/rates), fee schedule (lib/fx/fees, the
// platform's configured fees included) and exact arithmetic (lib/fx/pricing) that quotes use, so
// a listed receivingAmount is what a SENDING-locked quote for the same amount in the same
// five-minute window delivers (before any counterparty fee).
//
// Caching: rates move when the provider publishes new figures (the sandbox: every five minutes),
// so the priced list of one source currency is kept in an in-process cache (lib/cache/ttl,
// entries live five minutes) keyed by everything it depends on — platform, the provider's figures
// (provider and timestamp), source, sending amount, the platform's limits for that source and its
// fee schedule. A repeated call on the same figures prices nothing again; new figures, another
// amount or a changed fee config or currency limit is a different key. The platform's limits and
// fees come from its cached settings (lib/platform/settings), which PATCH /config drops at once
// in every server process, so a change shows at once everywhere.
type Rate = ReturnType<typeof corridor>;

const CACHE_ENTRIES = 256;
const cache = ttlCache<Rate[]>('exchange-rates', RATE_WINDOW_MS, CACHE_ENTRIES);
const stats = { hits: 0, misses: 0 };

/** Cache counters, for tests and diagnostics. */
export function rateCacheStats() {
  return { ...stats, size: cache.size };
}

interface Limits {
  minAmount: bigint;
  maxAmount: bigint;
}

function corridor(
  source: string,
  dest: string,
  amount: bigint,
  fees: FeeSchedule,
  limits: Limits | undefined,
  at: Date,
) {
  const snap = midRate(source, dest, at);
  const maxSendingAmount = limits?.maxAmount ?? defaultMaxAmount(source, at);
  // The smallest amount that still delivers one unit after fees, or the configured minimum when
  // that is higher: below either a quote is refused.
  let minSendingAmount: bigint;
  try {
    minSendingAmount = price({
      from: source,
      to: dest,
      rate: snap.rate,
      side: 'RECEIVING',
      amount: 1n,
      fees,
    }).totalSending;
  } catch {
    minSendingAmount = maxSendingAmount; // fees take everything: nothing is sendable
  }
  if (limits && limits.minAmount > minSendingAmount) minSendingAmount = limits.minAmount;
  let receivingAmount = 0n;
  let total: bigint;
  try {
    const priced = price({ from: source, to: dest, rate: snap.rate, side: 'SENDING', amount, fees });
    receivingAmount = priced.totalReceiving;
    total = priced.serviceFee + priced.platformFee;
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'AMOUNT_OUT_OF_RANGE') throw err;
    // The amount does not cover the fees: nothing would arrive. Still listed, so a list for
    // every corridor keeps every corridor, with the fees that amount would carry.
    const f = feesFor(amount, fees);
    total = f.service + f.platform;
  }
  return {
    sourceCurrency: currencyObject(source),
    sendingAmount: amount,
    minSendingAmount,
    maxSendingAmount,
    destinationCurrency: currencyObject(dest),
    destinationPaymentRail: defaultRail(dest).rail,
    receivingAmount,
    exchangeRate: exchangeRateOf(snap.rate),
    fees: { fixed: fees.serviceFixed + fees.platformFixed, total },
    updatedAt: snap.updatedAt,
  };
}

async function ratesFrom(
  platformId: string,
  source: string,
  amount: bigint,
  limits: Limits | undefined,
  at: Date,
): Promise<Rate[]> {
  const fees = await feeSchedule({ platformId, from: source, at }, db());
  // The provider's figures in force (its name and timestamp identify them); refused here, before
  // anything is priced, when there are none.
  const figures = ratesSource.get().table(at);
  const key = [
    platformId,
    figures.provider,
    figures.asOf.getTime(),
    source,
    amount,
    limits?.minAmount ?? '-',
    limits?.maxAmount ?? '-',
    fees.serviceFixed,
    fees.serviceBps,
    fees.platformFixed,
    fees.platformBps,
    fees.counterpartyFixed,
  ].join('|');
  const hit = cache.get(key);
  if (hit) {
    stats.hits++;
    return hit;
  }
  stats.misses++;
  // The currencies the provider publishes (a source it leaves out is refused here, visibly); a
  // destination it leaves out is not listed, and a quote to it is refused (lib/fx/rates.ts).
  rateIn(figures, source, source);
  const rates = RATE_CURRENCIES.filter((d) => d !== source && figures.perUsd.has(d)).map((dest) =>
    corridor(source, dest, amount, fees, limits, at),
  );
  cache.set(key, rates);
  return rates;
}

/** Upper-cased code, or a field error when the service carries no such currency. */
function checkCodes(field: string, values: string[], errors: FieldError[]): string[] {
  return values.map((v) => {
    const code = v.trim().toUpperCase();
    if (!RATE_CURRENCIES.includes(code))
      errors.push({
        field,
        message: `${v} is not a currency this service quotes`,
        constraint: { enum: RATE_CURRENCIES },
      });
    return code;
  });
}

export async function listRates(platformId: string, q: ExchangeRateQuery) {
  const errors: FieldError[] = [];
  const [source] =
    q.sourceCurrency !== undefined ? checkCodes('sourceCurrency', [q.sourceCurrency], errors) : [undefined];
  const dests = q.destinationCurrency
    ? new Set(checkCodes('destinationCurrency', q.destinationCurrency, errors))
    : null;
  if (errors.length) throw new DomainError('INVALID_CURRENCY', errors.map((e) => e.message).join('; '), { errors });

  const amount = q.sendingAmount ?? DEFAULT_SENDING_AMOUNT;
  const at = now();
  const limits: ReadonlyMap<string, Limits> = (await settingsOf(platformId, db())).currencies;
  const data: Rate[] = [];
  for (const s of source ? [source] : RATE_CURRENCIES) {
    if (dests && [...dests].every((d) => d === s)) continue;
    for (const r of await ratesFrom(platformId, s, amount, limits.get(s), at)) {
      if (!dests || dests.has(r.destinationCurrency.code)) data.push(r);
    }
  }
  return { data };
}
