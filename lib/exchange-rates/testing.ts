import { RATE_WINDOW_MS } from '@/lib/fx/rates';
import { setClockOffset } from '@/lib/platform/repository';
import type { Json, TestPlatform } from '@/tests/support/api';

// The bank-account currencies of the specification (accountInfo variants) and the crypto assets.
export const SPEC_BANK_CURRENCIES =
  'AED BDT BRL BWP CAD CNY COP DKK EGP EUR GBP GHS GTQ HKD HTG IDR INR JMD KES MWK MXN MYR NGN PHP PKR RWF SGD SLV THB TZS UGX USD VND XAF XOF ZAR ZMW'.split(
    ' ',
  );
const CRYPTO = ['BTC', 'USDC', 'USDT'];
export const ALL = [...SPEC_BANK_CURRENCIES, ...CRYPTO];

export type Rate = Json;
export const pair = (list: Rate[], from: string, to: string) =>
  list.find((r) => r.sourceCurrency.code === from && r.destinationCurrency.code === to);

/** Puts the platform's sandbox clock `intoWindow` ms into a rate window well in the future; returns that instant. */
export async function placeClock(p: TestPlatform, windowsAhead: number, intoWindow: number): Promise<Date> {
  const target = (Math.floor(Date.now() / RATE_WINDOW_MS) + windowsAhead) * RATE_WINDOW_MS + intoWindow;
  await setClockOffset(p.platformId, BigInt(target - Date.now()));
  return new Date(target);
}
