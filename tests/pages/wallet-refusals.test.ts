import { describe, expect, it, vi } from 'vitest';
import { balanceOf, externalAccount, fund } from '@/tests/support/money';
import { current } from './cookie-jar';
import { json, request, signIn, walletPlatform } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 27, point 3: nothing is offered that will fail. A payment to an account the holder closed,
// or above the corridor's single-transaction maximum, is refused when the quote is asked for —
// before any review — with the reason, and leaves no quote behind (so no history entry either).
const { POST: quote } = await import('@/app/wallet/api/quotes/route');
const { GET: history } = await import('@/app/wallet/api/history/route');
const { GET: destinations } = await import('@/app/wallet/api/destinations/route');

const platform = walletPlatform();

/** A customer whose wallet holds 20,000.00 USD, with one MXN bank account. */
async function holder(name: string) {
  const email = `refusals-${process.pid}-${Date.now()}-${name.length}@example.com`;
  const c = await platform.p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: name, email });
  expect(c.status, c.text).toBe(201);
  const accounts = (await platform.p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body
    .data as { id: string; type: string }[];
  const wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!.id;
  await fund(platform.p, wallet, 2_000_000);
  const bank = await externalAccount(platform.p, c.body.id, 'MXN', '000');
  return { email, customerId: c.body.id as string, wallet, bank };
}

const ask = async (accountId: string, amount: string) =>
  json(await quote(request('POST', '/quotes', { destination: { accountId }, amount })));

/** Nothing moved and nothing was offered: the wallet's balance and its (empty) history. */
async function nothingHappened(wallet: string) {
  expect(await balanceOf(platform.p, wallet)).toEqual({ available: 2_000_000n, total: 2_000_000n });
  const listed = await json(await history(request('GET', '/history')));
  expect(listed.status).toBe(200);
  expect(listed.body.data).toEqual([]);
}

describe('wallet quotes refused before review', () => {
  it('a closed (deleted) bank account of the holder is refused as closed, not as unknown', async () => {
    const h = await holder('Clara Closed');
    await signIn(h.email);
    const before = await json(await destinations());
    expect(before.body.data.map((d: { id: string }) => d.id)).toEqual([h.bank.toString()]);
    const del = await platform.p.api.delete(`/customers/external-accounts/${h.bank}`);
    expect(del.status, del.text).toBeLessThan(300);
    // The page may still show it (loaded before): asking for a quote says why it cannot be paid.
    const r = await ask(h.bank, '1000');
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'That account was closed: it cannot receive payments',
      details: { reason: 'DESTINATION_NOT_ACTIVE', status: 'INACTIVE' },
    });
    // Reloaded, the page no longer offers it.
    const after = await json(await destinations());
    expect(after.body.data).toEqual([]);
    // Another customer's account, closed or not, stays unknown.
    const other = await holder('Otto Other');
    const r2 = await ask(other.bank, '1000');
    expect(r2.status).toBe(404);
    expect(r2.body.code).toBe('REFERENCE_NOT_FOUND');
    await nothingHappened(h.wallet);
  });

  it("an amount above the corridor's single-transaction maximum is refused with the maximum", async () => {
    const cfg = await platform.p.api.patch('/config', {
      supportedCurrencies: [
        {
          currencyCode: 'USD',
          minAmount: 100,
          maxAmount: 500_000,
          requiredCounterpartyFields: [],
          enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
        },
      ],
    });
    expect(cfg.status, cfg.text).toBe(200);
    const h = await holder('Lima Limit');
    await signIn(h.email);
    // Within the balance (20,000.00 USD) but above the 5,000.00 USD a payment may carry.
    const over = await ask(h.bank, '500001');
    expect(over.status, JSON.stringify(over.body)).toBe(400);
    expect(over.body).toMatchObject({
      code: 'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      details: { maxAmount: 500_000, currency: 'USD' },
    });
    // Below the minimum (1.00 USD): refused too, with the minimum.
    const under = await ask(h.bank, '99');
    expect(under.status, JSON.stringify(under.body)).toBe(400);
    expect(under.body).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', details: { minAmount: 100, currency: 'USD' } });
    await nothingHappened(h.wallet);
    // The maximum itself is a quote to review.
    const at = await ask(h.bank, '500000');
    expect(at.status, JSON.stringify(at.body)).toBe(201);
    expect(at.body.totalSendingAmount).toBe(500_000);
  });
});
