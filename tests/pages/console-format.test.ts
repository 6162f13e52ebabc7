import { describe, expect, it } from 'vitest';
import { formatAmount, formatRate } from '@/components/format';
import { auditDetailText } from '@/components/console/audit-actions';

// The console's figures as staff read them. The interface's exchangeRate is sending major units
// per receiving major unit (interface-spec "exchange rate": 0.0586 USD buys one MXN); staff read
// it the other way round, as what one unit sent buys: "1 USD = 17.06 MXN".
describe('formatRate', () => {
  it('turns the API rate around into what one sending unit buys, up to four significant digits', () => {
    expect(formatRate(0.0586199578153, 'USD', 'MXN')).toBe('1 USD = 17.06 MXN');
    expect(formatRate(1 / 0.92, 'USD', 'EUR')).toBe('1 USD = 0.92 EUR');
    expect(formatRate(1 / 149.25, 'USD', 'JPY')).toBe('1 USD = 149.25 JPY');
    expect(formatRate(17.059, 'MXN', 'USD')).toBe('1 MXN = 0.05862 USD');
    expect(formatRate(1, 'USD', 'USDC')).toBe('1 USD = 1.00 USDC');
  });

  it('keeps two decimals and thousands separators for large rates', () => {
    expect(formatRate(1 / 25_400, 'USD', 'VND')).toBe('1 USD = 25,400.00 VND');
  });

  it('says nothing it cannot know: no rate, zero, negative or not finite', () => {
    for (const bad of [null, undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(formatRate(bad, 'USD', 'MXN')).toBe('—');
  });
});

describe('formatAmount', () => {
  it('shows minor units in major units with the currency, exactly past 2^53', () => {
    expect(formatAmount(123_456n, 'USD')).toBe('1,234.56 USD');
    expect(formatAmount(1706, 'MXN')).toBe('17.06 MXN');
    expect(formatAmount(-5n, 'EUR')).toBe('−0.05 EUR');
    expect(formatAmount(9_007_199_254_740_993n, 'USD')).toBe('90,071,992,547,409.93 USD');
    expect(formatAmount(null, 'USD')).toBe('—');
  });
});

describe('auditDetailText', () => {
  it('shows amounts of an object that names its currency in major units, other figures as stored', () => {
    expect(auditDetailText({ amount: '5000', attempt: 2, currency: 'USD', refundStatus: 'PENDING' })).toBe(
      'amount: 50.00 USD · attempt: 2 · refund status: PENDING',
    );
    expect(
      auditDetailText({
        set: { spendingLimits: { currency: 'USD', dailyLimit: '123456', dailyTransactionLimit: 7 } },
      }),
    ).toBe('set: (spending limits: (daily limit: 1,234.56 USD · daily transaction limit: 7))');
    expect(auditDetailText({ state: 'FROZEN', currency: 'EUR' })).toBe('state: FROZEN · currency: EUR');
    expect(auditDetailText({ fields: ['name', 'policy'], seconds: 60 })).toBe('fields: name, policy · seconds: 60');
    expect(auditDetailText({ expiresAt: '2026-11-30T15:51:09.403Z' })).toBe('expires at: 2026-11-30 15:51 UTC');
  });
});
