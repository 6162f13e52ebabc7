import { beforeAll, describe, expect, it, vi } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { externalAccount, fund } from '@/tests/support/money';
import { newWallet } from '@/lib/wallet-auth/testing/flows';
import { money, parseDecimal, quoteFigures, rateTexts, significantText } from '@/components/wallet/figures';
import { current } from './cookie-jar';
import { json, request, signIn } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 27, point 1: every figure of the review screen, computed from the quote the API answers
// with exact arithmetic. The API's exchangeRate is sending units per receiving unit (0.0586 USD
// per MXN); the page reads it the way people do, "1 USD = 17.059 MXN", with the inverse on tap.
const { POST: quote } = await import('@/app/wallet/api/quotes/route');

describe('figures', () => {
  it('turns the rate around exactly, without float drift', () => {
    expect(rateTexts(0.0586199578153, 'USD', 'MXN')).toEqual({
      forward: '1 USD = 17.059 MXN',
      inverse: '1 MXN = 0.05862 USD',
    });
    expect(rateTexts('92.5', 'INR', 'EUR')).toEqual({ forward: '1 INR = 0.0108108 EUR', inverse: '1 EUR = 92.5 INR' });
    // 0.1 + 0.2 style drift would show 3.3333333333333335 or 0.30000000000000004.
    expect(rateTexts(0.3, 'A', 'B')!.forward).toBe('1 A = 3.33333 B');
    expect(rateTexts('1.5e-7', 'X', 'Y')!.inverse).toBe('1 Y = 0.00000015 X');
    expect(significantText(2n, 3n)).toBe('0.666667');
    expect(significantText(999_999_9n, 10_000_000n, 3)).toBe('1');
    expect(parseDecimal('abc')).toBeNull();
    expect(parseDecimal(0)).toBeNull();
  });

  it("shows amounts in the currency's decimals with its symbol and code", () => {
    expect(money(123_456n, 'USD')).toBe('$1,234.56 USD');
    expect(money(-5n, 'MXN')).toBe('−MX$0.05 MXN');
    expect(money(1234, 'RWF')).toBe('FRw1,234 RWF');
    expect(money(5, 'BTC')).toBe('₿0.00000005 BTC');
    expect(money(1, 'USDC')).toBe('0.000001 USDC');
    expect(money(9_007_199_254_740_993n, 'USD')).toBe('$90,071,992,547,409.93 USD');
  });
});

describe('the review screen against the API quote', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
    process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
  });

  it('states each figure of the quote: what leaves, each fee, what is converted, what arrives, the rate', async () => {
    const w = await newWallet(p);
    await fund(p, w.accountId, 50_000);
    const bank = await externalAccount(p, w.customerId, 'MXN', '000');
    await signIn(w.email);
    const r = await json(
      await quote(request('POST', '/quotes', { destination: { accountId: bank }, amount: '12345' })),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const q = r.body;
    const f = quoteFigures(q);
    expect(f.send).toBe('$123.45 USD');
    expect(f.send).toBe(money(q.totalSendingAmount, 'USD'));
    expect(f.receive).toBe(money(q.totalReceivingAmount, 'MXN'));
    expect(f.receive).toMatch(/^MX\$[\d,]+\.\d{2} MXN$/);
    expect(f.totalFees).toBe(money(q.feesIncluded, 'USD'));
    expect(f.converted).toBe(money(BigInt(q.totalSendingAmount) - BigInt(q.feesIncluded), 'USD'));
    const service = BigInt(q.feesIncluded) - BigInt(q.platformFeesIncluded ?? 0);
    expect(f.fees[0].text.startsWith(money(service, 'USD'))).toBe(true);
    // The rate as read: MXN per USD, the inverse of the API's USD per MXN, to six digits.
    const forward = Number(/= ([\d.]+) MXN$/.exec(f.rate!.forward)![1]);
    const inverse = Number(/= ([\d.]+) USD$/.exec(f.rate!.inverse)![1]);
    expect(forward).toBeGreaterThan(1); // a dollar buys many pesos
    expect(Math.abs(forward * q.exchangeRate - 1)).toBeLessThan(1e-5);
    expect(Math.abs(inverse / q.exchangeRate - 1)).toBeLessThan(1e-5);
    // What arrives is what was converted at that rate (to the cent, rounded down by the service).
    const converted = Number(BigInt(q.totalSendingAmount) - BigInt(q.feesIncluded)) / 100;
    const arrives = Number(q.totalReceivingAmount) / 100;
    expect(Math.abs(converted / q.exchangeRate - arrives)).toBeLessThan(0.02);
    expect(Math.abs(converted * forward - arrives)).toBeLessThan(0.05);
  });
});
