import { sharedCache, singleFlight } from '../core/shared-cache';
import { inTransaction, type Tx } from '../core/db';
import * as repo from './repository';

// The platform settings money movement reads on every quote and transfer (currency limits, fee
// configs), cached for a few seconds; PATCH /config drops them at once in every server process
// (topic `platform`, lib/core/invalidation.ts).
export interface CurrencySettings {
  minAmount: bigint;
  maxAmount: bigint;
  requiredCounterpartyFields: { name: string; mandatory: boolean }[];
}

export interface FeeSettings {
  variableFeeBps: number;
  fixedFeeAmount: bigint;
  fixedFeeCurrency: string;
}

export interface PlatformSettings {
  currencyCodes: string[];
  currencies: Map<string, CurrencySettings>;
  fees: Map<string, FeeSettings>;
}

const cache = sharedCache<PlatformSettings>('platform-settings', 5_000, {
  platform: (platformId, cachedId) => cachedId === platformId,
});
const reads = singleFlight<Awaited<ReturnType<typeof repo.findWithConfig>>>();

/** Pass `tx` inside a transaction (a cache miss then reads through it). */
export async function settingsOf(platformId: string, tx: Tx): Promise<PlatformSettings> {
  const hit = cache.get(platformId);
  if (hit) return hit;
  const stamp = cache.stamp();
  const p = await (inTransaction(tx)
    ? repo.findWithConfig(platformId, tx)
    : reads(platformId, () => repo.findWithConfig(platformId, tx)));
  const settings: PlatformSettings = {
    currencyCodes: (p?.currencies ?? []).map((c) => c.currencyCode),
    currencies: new Map(
      (p?.currencies ?? []).map((c) => [
        c.currencyCode,
        {
          minAmount: c.minAmount,
          maxAmount: c.maxAmount,
          requiredCounterpartyFields: c.requiredCounterpartyFields as CurrencySettings['requiredCounterpartyFields'],
        },
      ]),
    ),
    fees: new Map(
      (p?.feeConfigs ?? []).map((f) => [
        `${f.feeType}:${f.sourceCurrency}`,
        { variableFeeBps: f.variableFeeBps, fixedFeeAmount: f.fixedFeeAmount, fixedFeeCurrency: f.fixedFeeCurrency },
      ]),
    ),
  };
  if (p) cache.set(platformId, settings, stamp);
  return settings;
}
