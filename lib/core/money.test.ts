import { describe, expect, it } from 'vitest';
import { add, amountOf, subtract, toCurrencyAmount, totalsByCurrency } from './money';

describe('Amount', () => {
  it('adds and subtracts within one currency, exactly beyond 2^53', () => {
    const big = amountOf(9_007_199_254_740_993n, 'USD');
    expect(add(big, amountOf(2n, 'USD'))).toEqual({ amount: 9_007_199_254_740_995n, currency: 'USD' });
    expect(subtract(big, amountOf(3n, 'USD'))).toEqual({ amount: 9_007_199_254_740_990n, currency: 'USD' });
  });

  it('refuses to combine two currencies', () => {
    expect(() => add(amountOf(1n, 'USD'), amountOf(1n, 'EUR'))).toThrow(/USD with EUR/);
    expect(() => subtract(amountOf(1n, 'BTC'), amountOf(1n, 'USD'))).toThrow(/BTC with USD/);
  });

  it('sums per currency and shows the wire shape with the currency object', () => {
    const sums = totalsByCurrency([amountOf(5n, 'USD'), amountOf(-5n, 'USD'), amountOf(7n, 'EUR')]);
    expect([...sums]).toEqual([
      ['USD', 0n],
      ['EUR', 7n],
    ]);
    expect(toCurrencyAmount(amountOf(150n, 'EUR'))).toMatchObject({
      amount: 150n,
      currency: { code: 'EUR', decimals: 2 },
    });
  });
});
