import { expect } from 'vitest';
import { audit } from '@/lib/ledger/service';

/** The ledger invariant: per currency the accounts sum to zero, no internal bucket is negative,
 * every balance equals the sum of its entries, every posting balances. */
export async function expectLedgerBalanced(platformId?: string) {
  const r = await audit(platformId);
  expect(r.currencySums, 'per-currency sums must be zero').toEqual([]);
  expect(r.negative, 'no internal account may be negative').toEqual([]);
  expect(r.drift, 'balances must equal the sum of their entries').toEqual([]);
  expect(r.unbalanced, 'every posting must balance').toEqual([]);
}
