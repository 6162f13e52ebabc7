import type { Amount } from '../core/money';
import type { Tx } from '../core/db';
import { settingsOf } from '../platform/settings';
import { midRate, minorRate } from './rates';
import type { FeeSchedule } from './pricing';

// What a cross-currency transfer costs. The service's own fee is 10 US cents (in the sending
// currency at the mid rate, rounded up) plus 25 basis points; the platform may add its own fee
// (PATCH /config feeConfigs, USD sources only) or override it per quote (platformFeeOverride).
export const SERVICE_FIXED_USD_CENTS = 10n;
export const SERVICE_BPS = 25n;

export function serviceFixedIn(currency: string, at: Date): bigint {
  if (currency === 'USD') return SERVICE_FIXED_USD_CENTS;
  const r = minorRate('USD', currency, midRate('USD', currency, at).rate);
  return (SERVICE_FIXED_USD_CENTS * r.num + r.den - 1n) / r.den;
}

export interface PlatformFeeOverride {
  platformFixedFee: Amount;
  platformVariableFeeBps: number;
}

export async function feeSchedule(
  p: { platformId: string; from: string; at: Date; override?: PlatformFeeOverride; counterpartyFixed?: bigint },
  tx: Tx,
): Promise<FeeSchedule> {
  let platformFixed = 0n;
  let platformBps = 0n;
  if (p.override) {
    platformFixed = p.override.platformFixedFee.amount;
    platformBps = BigInt(p.override.platformVariableFeeBps);
  } else if (p.from === 'USD') {
    const cfg = (await settingsOf(p.platformId, tx)).fees.get('CROSS_CURRENCY_TRANSACTION:USD');
    if (cfg) {
      platformFixed = cfg.fixedFeeAmount; // in USD: configs with another fixed-fee currency are refused
      platformBps = BigInt(cfg.variableFeeBps);
    }
  }
  return {
    serviceFixed: serviceFixedIn(p.from, p.at),
    serviceBps: SERVICE_BPS,
    platformFixed,
    platformBps,
    counterpartyFixed: p.counterpartyFixed ?? 0n,
  };
}
