import type { Tx } from '../db';
import { ApiError } from '../http/errors';
import { INT64_MAX } from '../http/fields';
import { settingsOf } from '../platform/settings';

// The platform's per-currency single-transaction limits (GET/PATCH /config), checked for every
// payment: quotes (two currencies) and same-currency transfers (one currency on both sides).
export async function checkLimits(platformId: string, sending: string, receiving: string, totalSending: bigint, totalReceiving: bigint, tx?: Tx) {
  const settings = await settingsOf(platformId, tx);
  const limit = settings.currencies.get(sending) ?? null;
  const max = limit?.maxAmount ?? INT64_MAX;
  if (totalSending > max || totalSending > INT64_MAX) {
    throw new ApiError('TRANSACTION_SIZE_LIMIT_EXCEEDED', `The sending amount ${totalSending} ${sending} exceeds the single-transaction maximum of ${max} for this corridor`, { maxAmount: max, currency: sending });
  }
  if (limit && totalSending < limit.minAmount) {
    throw new ApiError('AMOUNT_OUT_OF_RANGE', `The sending amount ${totalSending} ${sending} is below the minimum of ${limit.minAmount}`, { minAmount: limit.minAmount, currency: sending });
  }
  const recv = settings.currencies.get(receiving);
  if (totalReceiving > INT64_MAX || (recv && totalReceiving > recv.maxAmount)) {
    throw new ApiError('TRANSACTION_SIZE_LIMIT_EXCEEDED', `The receiving amount ${totalReceiving} ${receiving} exceeds the single-transaction maximum for this corridor`, { currency: receiving });
  }
}
