import { describe, expect, it } from 'vitest';
import { formatMajorInput, parseMajorAmount } from './amount-input';

const minor = (text: string, currency = 'USD') => {
  const r = parseMajorAmount(text, currency);
  if (!r.ok) throw new Error(`refused ${text}: ${r.message}`);
  return r.minor;
};
const refusal = (text: string, currency = 'USD') => {
  const r = parseMajorAmount(text, currency);
  if (r.ok) throw new Error(`read ${text} as ${r.minor}`);
  return r.message;
};

describe('parseMajorAmount', () => {
  it('reads major units with thousands separators into minor units', () => {
    expect(minor('1,000.00')).toBe(100_000n);
    expect(minor('1000')).toBe(100_000n);
    expect(minor(' 12.5 ')).toBe(1_250n);
    expect(minor('0.01')).toBe(1n);
    expect(minor('0')).toBe(0n);
    expect(minor('1 234 567.89')).toBe(123_456_789n);
    expect(minor('10.')).toBe(1_000n);
  });

  it('uses the currency’s own decimals', () => {
    expect(minor('1,000', 'RWF')).toBe(1_000n);
    expect(minor('0.00000001', 'BTC')).toBe(1n);
    expect(minor('2.5', 'USDC')).toBe(2_500_000n);
    expect(refusal('1.5', 'RWF')).toMatch(/RWF has no decimals/);
    expect(refusal('1.234')).toMatch(/USD has 2 decimals; this amount has 3/);
  });

  it('is exact beyond 2^53', () => {
    expect(minor('90,071,992,547,409.93')).toBe(9_007_199_254_740_993n);
  });

  it('refuses what a person may not have meant, saying why', () => {
    expect(refusal('12,50')).toMatch(/dot for decimals/);
    expect(refusal('1,00,000')).toMatch(/Type the amount in USD, as in 1,000.00/);
    expect(refusal('-5')).toMatch(/negative/);
    expect(refusal('')).toMatch(/Enter an amount/);
    expect(refusal('5 USD')).toMatch(/Type the amount in USD/);
    expect(refusal('1e3')).toMatch(/Type the amount/);
    expect(refusal('123456789012345678901')).toMatch(/too large/);
  });
});

describe('formatMajorInput', () => {
  it('writes minor units as they are typed, and reads back the same', () => {
    expect(formatMajorInput(100_000n, 'USD')).toBe('1,000.00');
    expect(formatMajorInput(5n, 'USD')).toBe('0.05');
    expect(formatMajorInput(1_500n, 'XOF')).toBe('1,500');
    for (const [n, c] of [
      [123_456_789n, 'USD'],
      [1n, 'BTC'],
      [0n, 'EUR'],
    ] as const)
      expect(minor(formatMajorInput(n, c), c)).toBe(n);
  });
});
