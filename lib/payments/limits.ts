import type { Tx } from '../core/db';
import { DomainError } from '../core/errors';
import { INT64_MAX } from '../core/fields';
import { settingsOf } from '../platform/settings';
import { now } from '../core/clock';
import { isRateCurrency, midRate, minorRate } from '../fx/rates';

/** Sending limit when the platform has not configured the source currency: USD 1,000,000 worth. */
const DEFAULT_MAX_USD_CENTS = 100_000_000n;

/** The single-transaction maximum of a source currency the platform has not configured (GET /exchange-rates lists it). */
export function defaultMaxAmount(source: string, at: Date): bigint {
  if (source === 'USD' || !isRateCurrency(source)) return DEFAULT_MAX_USD_CENTS;
  const r = minorRate('USD', source, midRate('USD', source, at).rate);
  return (DEFAULT_MAX_USD_CENTS * r.num) / r.den;
}

// The platform's per-currency single-transaction limits (GET/PATCH /config), checked for every
// payment: quotes (two currencies) and same-currency transfers (one currency on both sides).
export async function checkLimits(
  platformId: string,
  sending: string,
  receiving: string,
  totalSending: bigint,
  totalReceiving: bigint,
  tx: Tx,
) {
  const settings = await settingsOf(platformId, tx);
  const limit = settings.currencies.get(sending) ?? null;
  const max = limit?.maxAmount ?? defaultMaxAmount(sending, now());
  if (totalSending > max || totalSending > INT64_MAX) {
    throw new DomainError(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `The sending amount ${totalSending} ${sending} exceeds the single-transaction maximum of ${max} for this corridor`,
      { maxAmount: max, currency: sending },
    );
  }
  if (limit && totalSending < limit.minAmount) {
    throw new DomainError(
      'AMOUNT_OUT_OF_RANGE',
      `The sending amount ${totalSending} ${sending} is below the minimum of ${limit.minAmount}`,
      { minAmount: limit.minAmount, currency: sending },
    );
  }
  const recv = settings.currencies.get(receiving);
  if (totalReceiving > INT64_MAX || (recv && totalReceiving > recv.maxAmount)) {
    throw new DomainError(
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `The receiving amount ${totalReceiving} ${receiving} exceeds the single-transaction maximum for this corridor`,
      { currency: receiving },
    );
  }
}
