import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, balanceOf, externalAccount, fund } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { activeCard, simulate } from '@/lib/cards/testing';
import { stamp } from '@/lib/wallet-auth/testing/client';
import { current, CookieJar } from './cookie-jar';
import { json, request, signIn } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 27, point 2: the wallet's history lists only what moved money — executed payments
// (completed, failed with the reason), incoming payments, card purchases with the merchant — per
// account, each naming the other side; a quote refused or left to expire never appears. Each kind
// is driven through the API and the page's figures are checked against the ledger's balances.
const { GET: history } = await import('@/app/wallet/api/history/route');
const { GET: entry } = await import('@/app/wallet/api/history/[id]/route');
const { POST: quote } = await import('@/app/wallet/api/quotes/route');
const { POST: execute } = await import('@/app/wallet/api/quotes/[id]/execute/route');

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
});
beforeEach(() => {
  current.jar = new CookieJar();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
type Entry = { id: string; kind: string; status: string; amount: number; counterparty: string; failureReason?: string };

async function historyOf(accountId?: string): Promise<Entry[]> {
  const r = await json(await history(request('GET', `/history${accountId ? `?accountId=${accountId}` : ''}`)));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

async function pay(key: Parameters<typeof stamp>[1], accountId: string, amount: string) {
  const q = await json(
    await quote(request('POST', '/quotes', { destination: { accountId }, amount, description: 'Rent' })),
  );
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  const payload = q.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign;
  const done = await json(
    await execute(
      request('POST', `/quotes/${q.body.id}/execute`, {}, { 'service-wallet-signature': stamp(payload, key) }),
      params(q.body.id),
    ),
  );
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return q.body as { id: string; transactionId: string; totalSendingAmount: number };
}

/** A customer with a wallet and a USD account, both funded, and two MXN bank accounts (one failing). */
async function holderWithMoney() {
  const email = `history-${process.pid}-${Date.now()}@example.com`;
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Hilda History',
    email,
    currencies: ['USD'],
  });
  expect(c.status, c.text).toBe(201);
  const accounts = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body
    .data as { id: string; type: string }[];
  const wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!.id;
  const usd = accounts.find((a) => a.type !== 'EMBEDDED_WALLET')!.id;
  await fund(p, wallet, 20_000);
  await fund(p, usd, 5_000);
  const good = await externalAccount(p, c.body.id, 'MXN', '000');
  const failing = await externalAccount(p, c.body.id, 'MXN', '002');
  return { email, c, wallet, usd, good, failing };
}

describe('wallet history', () => {
  it('lists executed payments, incoming payments and card purchases per account; never an offer', async () => {
    const { email, c, wallet, usd, good, failing } = await holderWithMoney();
    const { key } = await signIn(email);

    // An offer made through the API from the wallet and never executed: not in the history.
    const offer = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: wallet },
      destination: { destinationType: 'ACCOUNT', accountId: good },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 700,
    });
    expect(offer.status, offer.text).toBe(201);
    const paid = await pay(key, good, '1234');
    const failed = await pay(key, failing, '2000');
    // A quote above the balance is refused before any review, with the reason.
    const tooMuch = await json(
      await quote(request('POST', '/quotes', { destination: { accountId: good }, amount: '1000000' })),
    );
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.details).toMatchObject({ reason: 'INSUFFICIENT_FUNDS', available: 20_000 - 1234 - 2000 });
    await advance(p, 3600); // the offer expires; the payments settle or fail
    // Card purchase on the USD account, and an incoming payment there.
    const card = await activeCard(p, { customerId: c.body.id, umaAddress: c.body.umaAddress, accounts: { USD: usd } });
    await simulate(p, card.id, 'authorization', {
      amount: 450,
      currency: { code: 'USD' },
      merchant: { descriptor: 'CORNER CAFE', mcc: '5814', country: 'US' },
    });
    const incoming = await p.api.post('/sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      customerId: c.body.id,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 321,
    });
    expect(incoming.status, incoming.text).toBe(200);
    await signIn(email); // the hour passed ended the first session

    const inWallet = await historyOf();
    expect(inWallet.map((e) => `${e.kind} ${e.id}`).sort()).toEqual(
      [`SENT ${paid.transactionId}`, `SENT ${failed.transactionId}`, `REFUND ${failed.transactionId}`].sort(),
    );
    expect(inWallet.map((e) => e.id)).not.toContain(offer.body.transactionId);
    const sent = inWallet.find((e) => e.id === paid.transactionId)!;
    expect(sent).toMatchObject({ kind: 'SENT', status: 'COMPLETED', amount: -1234 });
    // The payee by the account holder's name, then the account.
    expect(sent.counterparty).toMatch(/^Pat Receiver · MXN account ···0000$/);
    const fail = inWallet.find((e) => e.id === failed.transactionId && e.kind === 'SENT')!;
    expect(fail).toMatchObject({ kind: 'SENT', status: 'FAILED', amount: -2000 });
    expect(fail.failureReason).toBeTruthy();
    // Its refund, an entry of its own and newer: the 2,000 back in the wallet.
    const back = inWallet.find((e) => e.id === failed.transactionId && e.kind === 'REFUND')!;
    expect(back).toMatchObject({ status: 'COMPLETED', amount: 2000, counterparty: fail.counterparty });
    expect(inWallet.indexOf(back)).toBeLessThan(inWallet.indexOf(fail));

    const inUsd = await historyOf(usd);
    expect(inUsd.map((e) => e.kind).sort()).toEqual(['CARD_PURCHASE', 'RECEIVED']);
    expect(inUsd.find((e) => e.kind === 'CARD_PURCHASE')).toMatchObject({ amount: -450, counterparty: 'CORNER CAFE' });
    expect(inUsd.find((e) => e.kind === 'RECEIVED')).toMatchObject({
      amount: 321,
      counterparty: '$success.usd@sandbox.uma.money',
    });

    // Against the ledger: the wallet holds what was funded less what left and was not refunded.
    const walletBalance = await balanceOf(p, wallet);
    // Every entry's amount summed is the wallet's balance less what was funded.
    const listed = inWallet.reduce((sum, e) => sum + BigInt(e.amount), 0n);
    expect(walletBalance.total).toBe(20_000n + listed);
    expect(walletBalance.total).toBe(20_000n - 1234n);
    const usdBalance = await balanceOf(p, usd);
    expect(usdBalance.total).toBe(5_000n + 321n);
    expect(usdBalance.available).toBe(5_000n + 321n - 450n);

    // The detail: the transaction, its quote's rate and fees, its timeline.
    const d = await json(await entry(request('GET', `/history/${paid.transactionId}`), params(paid.transactionId)));
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.quote).toMatchObject({ id: paid.id, totalSendingAmount: 1234 });
    expect(d.body.transaction.description).toBe('Rent');
    expect(d.body.timeline.map((s: { event: string }) => s.event)).toContain('OUTGOING_PAYMENT.COMPLETED');
    // Another customer's transaction is not found, nor an account that is not the holder's.
    const other = await json(await entry(request('GET', `/history/${incoming.body.id}x`), params('Transaction:x')));
    expect(other.status).toBe(404);
    const foreign = await json(await history(request('GET', `/history?accountId=InternalAccount:nope`)));
    expect(foreign.status).toBe(404);
    await expectLedgerBalanced(p.platformId);
  });
});
