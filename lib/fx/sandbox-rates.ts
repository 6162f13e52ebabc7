import { now } from '../core/clock';
import { decimalRational, RATE_WINDOW_MS, reduce, type RatesSource, type RatesTable, type Rational } from './rates';
import { SANDBOX_USD_MID } from './reference-rates';

// The sandbox rates provider: a table of reference mid-market rates against USD (the figures
// every sandbox scenario and test is written against), moved a little every five minutes,
// deterministically, so a rate is stable for its five-minute window and different in the next —
// like a real cached feed, with the window's start as the provider's timestamp and its end as the
// figures' expiry. It answers through the same port as the HTTP provider (lib/fx/rates-http.ts).
/** Deterministic drift of at most ±0.25% per five-minute window, in parts per million. */
function driftPpm(code: string, window: number): bigint {
  if (code === 'USD' || code === 'USDC' || code === 'USDT' || code === 'SLV') return 0n;
  let h = 2166136261;
  for (const ch of `${code}:${window}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return BigInt((h % 5001) - 2500);
}

// The table of the last window asked for: every quote reads it two or three times (its rate and
// the rate details against BTC), and building it reduces a few dozen bigint fractions — about 2%
// of the server's CPU in the payment flow (CPU profile of `npm run bench`). Readers never change it.
let last: { window: number; table: RatesTable } | undefined;

/** The sandbox table as the provider publishes it for the five-minute window containing `at`. */
export function sandboxTable(at: Date): RatesTable {
  const window = Math.floor(at.getTime() / RATE_WINDOW_MS);
  if (last?.window === window) return last.table;
  const table = buildTable(window);
  last = { window, table };
  return table;
}

function buildTable(window: number): RatesTable {
  const perUsd = new Map<string, Rational>();
  for (const [code, figure] of Object.entries(SANDBOX_USD_MID)) {
    const r = decimalRational(figure)!;
    perUsd.set(code, reduce({ num: r.num * (1_000_000n + driftPpm(code, window)), den: r.den * 1_000_000n }));
  }
  const asOf = new Date(window * RATE_WINDOW_MS);
  return { provider: 'sandbox', perUsd, asOf, expiresAt: new Date(asOf.getTime() + RATE_WINDOW_MS) };
}

export const sandboxRates: RatesSource = {
  table: sandboxTable,
  // Nothing to fetch: the figures are computed for any moment.
  refresh: async () => ({ outcome: 'CURRENT', asOf: sandboxTable(now()).asOf }),
  describe: () => ({
    party: 'exchange rates',
    adapter: 'sandbox',
    connected: false,
    detail: 'reference table, moving every five minutes',
  }),
};
