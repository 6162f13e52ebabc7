import { describe, expect, it } from 'vitest';
import { minorRate, rateIn } from './rates';
import { sandboxTable } from './sandbox-rates';
import { exchangeRateOf, price, type FeeSchedule } from './pricing';

// The sandbox provider's figures, read the way midRate reads the plugged provider's.
const midRate = (from: string, to: string, at: Date) => rateIn(sandboxTable(at), from, to);

const noFees: FeeSchedule = {
  serviceFixed: 0n,
  serviceBps: 0n,
  platformFixed: 0n,
  platformBps: 0n,
  counterpartyFixed: 0n,
};
const fees: FeeSchedule = {
  serviceFixed: 25n,
  serviceBps: 30n,
  platformFixed: 10n,
  platformBps: 15n,
  counterpartyFixed: 50n,
};
const at = new Date('2026-11-21T00:00:00Z');

describe('FX pricing (exact integers)', () => {
  it('keeps rates stable within a five-minute window and moves them between windows', () => {
    const a = midRate('USD', 'MXN', at);
    const b = midRate('USD', 'MXN', new Date(at.getTime() + 4 * 60_000));
    const c = midRate('USD', 'MXN', new Date(at.getTime() + 5 * 60_000));
    expect(b.rate).toEqual(a.rate);
    expect(c.rate).not.toEqual(a.rate);
    expect(a.updatedAt.toISOString()).toBe('2026-11-21T00:00:00.000Z');
  });

  it('converts minor units across different decimals', () => {
    // 1 USD = 24850 VND (0 decimals): 1 cent = 248.5 dong
    expect(minorRate('USD', 'VND', { num: 24850n, den: 1n })).toEqual({ num: 497n, den: 2n });
    expect(minorRate('BTC', 'USD', { num: 64516n, den: 1n })).toEqual({ num: 16129n, den: 250000n });
  });

  it('SENDING lock: fees come off the top, receiving rounds down', () => {
    const r = price({ from: 'USD', to: 'EUR', rate: { num: 92n, den: 100n }, side: 'SENDING', amount: 10000n, fees });
    // service 25 + 30 bps of 10000 = 55; platform 10 + 15 bps = 25
    expect(r).toMatchObject({
      totalSending: 10000n,
      serviceFee: 55n,
      serviceVariableFee: 30n,
      platformFee: 25n,
      netSending: 9920n,
    });
    expect(r.totalReceiving).toBe((9920n * 92n) / 100n - 50n);
    expect(r.exchangeRate).toBeCloseTo(1 / 0.92, 6);
  });

  it('exchangeRate keeps twelve significant digits, also for currencies worth a tiny fraction of the other', () => {
    for (const [from, to] of [
      ['USD', 'VND'],
      ['USD', 'IDR'],
      ['USD', 'UGX'],
      ['VND', 'USD'],
      ['USD', 'EUR'],
    ]) {
      const { rate } = midRate(from, to, at);
      const exact = Number(rate.den) / Number(rate.num); // sending major units per receiving major unit
      const shown = exchangeRateOf(rate);
      expect(Math.abs(shown - exact) / exact).toBeLessThan(1e-11);
    }
  });

  it('RECEIVING lock: the smallest total sending amount that delivers exactly the amount', () => {
    for (const amount of [1n, 999n, 12345n, 9200n, 5_000_000_00n]) {
      const r = price({ from: 'USD', to: 'EUR', rate: { num: 92n, den: 100n }, side: 'RECEIVING', amount, fees });
      expect(r.totalReceiving).toBe(amount);
      // Delivers at least amount + counterparty fee after fees...
      expect((r.netSending * 92n) / 100n).toBeGreaterThanOrEqual(amount + 50n);
      // ...and one unit less would not.
      let lessReceives = 0n;
      try {
        lessReceives = price({
          from: 'USD',
          to: 'EUR',
          rate: { num: 92n, den: 100n },
          side: 'SENDING',
          amount: r.totalSending - 1n,
          fees,
        }).totalReceiving;
      } catch {
        lessReceives = 0n; // too small to cover the fees at all
      }
      expect(lessReceives).toBeLessThan(amount);
    }
  });

  it('is exact for amounts far beyond 2^53', () => {
    const r = price({
      from: 'USD',
      to: 'MXN',
      rate: { num: 1705n, den: 100n },
      side: 'SENDING',
      amount: 9007199254740993n,
      fees: noFees,
    });
    expect(r.totalReceiving).toBe((9007199254740993n * 1705n) / 100n);
  });

  it('refuses amounts that fees consume', () => {
    expect(() =>
      price({ from: 'USD', to: 'EUR', rate: { num: 92n, den: 100n }, side: 'SENDING', amount: 30n, fees }),
    ).toThrow(/too small/);
  });
});
