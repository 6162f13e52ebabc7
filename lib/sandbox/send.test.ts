import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { sha256Hex } from '@/lib/core/crypto/secrets';
import { outboxOf } from '@/lib/notify/sender';
import { addressProblem } from '@/lib/crypto/networks';
import { base58checkDecode, bech32Decode } from '@/lib/core/crypto/encoding';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { advance, balanceOf, customerWithAccounts, externalAccount, txn, type Holder } from '@/tests/support/money';

// Real-time-funding quotes: paid from outside by their payment instructions (POST /sandbox/send),
// with Strong Customer Authentication for customers in SCA regions.
let p: TestPlatform;
let h: Holder;
let dest: string;
beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Rtf Customer', ['USD', 'EUR']);
  dest = await externalAccount(p, h.customerId, 'EUR', '246');
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});

const rtf = (amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: h.customerId },
  destination: { destinationType: 'ACCOUNT', accountId: dest },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

it('gives payment instructions; paying them completes the transfer', async () => {
  const q = await p.api.post('/quotes', rtf(25000));
  expect(q.status, q.text).toBe(201);
  const instr = q.body.paymentInstructions[0];
  expect(instr.accountOrWalletInfo).toMatchObject({
    accountType: 'USD_ACCOUNT',
    paymentRails: expect.arrayContaining(['RTP']),
  });
  expect(instr.accountOrWalletInfo.reference).toMatch(/^CR/);
  expectError(await p.api.post(`/quotes/${q.body.id}/execute`), 400, 'INVALID_INPUT');
  const sent = await p.api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'USD' });
  expect(sent.status, sent.text).toBe(200);
  expect(sent.body).toMatchObject({
    id: q.body.transactionId,
    status: 'PROCESSING',
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
  });
  await advance(p, 5);
  expect((await txn(p, q.body.transactionId)).status).toBe('COMPLETED');
  expectError(await p.api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'USD' }), 400, 'INVALID_INPUT');
});

it('a wrong amount fails with FUNDING_AMOUNT_MISMATCH and goes back to the sender', async () => {
  const q = (await p.api.post('/quotes', rtf(10000))).body;
  const sent = await p.api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD', currencyAmount: 9999 });
  expect(sent.body).toMatchObject({
    status: 'FAILED',
    failureReason: 'FUNDING_AMOUNT_MISMATCH',
    refund: { status: 'COMPLETED' },
  });
});

it('refuses a wrong currency, an unknown quote, an account-funded quote, and an expired one', async () => {
  const q = (await p.api.post('/quotes', rtf(1000))).body;
  expectError(await p.api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'EUR' }), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post('/sandbox/send', { quoteId: 'Quote:00000000-0000-0000-0000-000000000000', currencyCode: 'USD' }),
    404,
    'QUOTE_NOT_FOUND',
  );
  const acct = (
    await p.api.post('/quotes', { ...rtf(1000), source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD } })
  ).body;
  expectError(await p.api.post('/sandbox/send', { quoteId: acct.id, currencyCode: 'USD' }), 400, 'INVALID_INPUT');
  await advance(p, 121);
  expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('EXPIRED');
  expectError(await p.api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }), 400, 'INVALID_INPUT');
});

it('refuses immediatelyExecute and requires cryptoNetwork for stablecoin funding', async () => {
  expectError(await p.api.post('/quotes', rtf(1000, { immediatelyExecute: true })), 400, 'INVALID_INPUT');
  const usdc = await p.api.post('/quotes', {
    ...rtf(1000),
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', customerId: h.customerId },
  });
  expectError(usdc, 400, 'INVALID_INPUT');
  expect(usdc.body.details.errors[0].field).toBe('source.cryptoNetwork');
});

it('gives a deposit address on the cryptoNetwork asked for, and refuses a network the asset is not deposited on', async () => {
  const fund = async (currency: string, cryptoNetwork?: string) =>
    p.api.post('/quotes', {
      ...rtf(1_000_000),
      source: {
        sourceType: 'REALTIME_FUNDING',
        currency,
        customerId: h.customerId,
        ...(cryptoNetwork ? { cryptoNetwork } : {}),
      },
    });
  const wallet = async (currency: string, network: string) => {
    const q = await fund(currency, network);
    expect(q.status, q.text).toBe(201);
    expect(q.body.source).toMatchObject({ sourceType: 'REALTIME_FUNDING', currency, cryptoNetwork: network });
    return { quote: q.body, info: q.body.paymentInstructions[0].accountOrWalletInfo };
  };
  const solana = await wallet('USDC', 'SOLANA');
  expect(solana.info).toMatchObject({ accountType: 'SOLANA_WALLET', assetType: 'USDC' });
  expect(addressProblem('SOLANA', solana.info.address)).toBeUndefined();
  for (const network of ['ETHEREUM', 'BASE', 'POLYGON'] as const) {
    const { info } = await wallet('USDC', network);
    expect(info).toMatchObject({ accountType: `${network}_WALLET`, assetType: 'USDC' });
    expect(addressProblem(network, info.address)).toBeUndefined();
  }
  const tron = (await wallet('USDT', 'TRON')).info;
  expect(tron.accountType).toBe('TRON_WALLET');
  expect(addressProblem('TRON', tron.address)).toBeUndefined();
  expect(base58checkDecode(tron.address)[0]).toBe(0x41); // throws on a bad checksum
  const btc = (await wallet('BTC', 'BITCOIN')).info;
  expect(btc).toMatchObject({ accountType: 'BITCOIN_L1', network: 'BITCOIN' });
  expect(btc.address).toMatch(/^tb1q/);
  expect(bech32Decode(btc.address)?.hrp).toBe('tb'); // null on a bad checksum
  const spark = (await wallet('USDT', 'SPARK')).info;
  expect(spark.accountType).toBe('SPARK_WALLET');
  expect(addressProblem('SPARK', spark.address)).toBeUndefined();
  expect(bech32Decode(spark.address)?.hrp).toBe('sprt');
  // Each quote gets its own address.
  expect((await wallet('USDC', 'SOLANA')).info.address).not.toBe(solana.info.address);
  // Networks the asset is not deposited on, and a network for a fiat currency.
  for (const [currency, network] of [
    ['USDC', 'TRON'],
    ['USDC', 'BOGUS'],
    ['BTC', 'LIGHTNING'],
    ['USD', 'SOLANA'],
  ]) {
    const res = await fund(currency, network);
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('source.cryptoNetwork');
  }
  // The sandbox pays the instructions as given: the quote settles.
  const paid = await p.api.post('/sandbox/send', { quoteId: solana.quote.id, currencyCode: 'USDC' });
  expect(paid.status, paid.text).toBe(200);
  await advance(p, 5);
  expect((await txn(p, solana.quote.transactionId)).status).toBe('COMPLETED');
});

describe('Strong Customer Authentication (customer in an SCA region)', () => {
  let eu: Holder;
  let euDest: string;
  beforeAll(async () => {
    eu = await customerWithAccounts(p, 'Eva European', ['EUR', 'USD'], {
      region: 'DE',
      phoneNumber: '+4915112345678',
    });
    euDest = await externalAccount(p, eu.customerId, 'MXN', '135');
  });
  const euQuote = (extra: Record<string, unknown> = {}) =>
    p.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: eu.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: euDest },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5000,
      ...extra,
    });

  it('answers 202 PENDING_AUTHORIZATION with a challenge and withholds instructions until authorized', async () => {
    const q = await euQuote();
    expect(q.status, q.text).toBe(202);
    expect(q.body.status).toBe('PENDING_AUTHORIZATION');
    expect(q.body.paymentInstructions).toBeUndefined();
    expect(q.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'] });
    expect(outboxOf(p.platformId, '+4915112345678').at(-1)?.text).toContain('123456');
    // At rest the code is a keyed tag: neither the code nor an unkeyed hash of it is stored.
    const stored = JSON.stringify((await db().quote.findUnique({ where: { id: q.body.id } }))!.scaChallenge);
    expect(stored).not.toContain('123456');
    expect(stored).not.toContain(sha256Hex(`${q.body.id}:123456`));
    expect(stored).not.toContain(sha256Hex('123456'));
    expect((await txn(p, q.body.transactionId)).status).toBe('PENDING_AUTHORIZATION');
    expectError(await p.api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'EUR' }), 400, 'INVALID_INPUT');
    const wrong = await p.api.post(`/quotes/${q.body.id}/authorize`, { code: '000000' });
    expectError(wrong, 400, 'INVALID_INPUT');
    expect(wrong.body.details.attemptsLeft).toBe(4);
    const ok = await p.api.post(`/quotes/${q.body.id}/authorize`, { code: '123456' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('PENDING');
    expect(ok.body.scaChallenge).toBeUndefined();
    expect(ok.body.paymentInstructions[0].accountOrWalletInfo.accountType).toBe('EUR_ACCOUNT');
    expectError(await p.api.post(`/quotes/${q.body.id}/authorize`, { code: '123456' }), 409, 'CONFLICT');
    expect((await p.api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'EUR' })).status).toBe(200);
  });

  it('rejects TOTP, PASSKEY without enrollment, and rate-limits resends', async () => {
    expectError(await euQuote({ scaFactor: 'TOTP' }), 400, 'INVALID_INPUT');
    expectError(await euQuote({ scaFactor: 'PASSKEY' }), 400, 'INVALID_INPUT');
    const q = (await euQuote()).body;
    const early = await p.api.post(`/quotes/${q.id}/authorize/resend`);
    expectError(early, 429, 'RATE_LIMITED');
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
    await advance(p, 31);
    expect((await p.api.post(`/quotes/${q.id}/authorize/resend`)).status).toBe(204);
    // A non-SCA quote has nothing to authorize.
    const plain = (await p.api.post('/quotes', rtf(1000))).body;
    expectError(await p.api.post(`/quotes/${plain.id}/authorize`, { code: '123456' }), 409, 'CONFLICT');
  });

  it('evaluates at most 5 of 30 concurrent wrong codes; then the challenge is locked', async () => {
    const q = (await euQuote()).body;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => p.api.post(`/quotes/${q.id}/authorize`, { code: '654321' })),
    );
    const evaluated = answers.filter((r) => r.status === 400);
    expect(evaluated).toHaveLength(5);
    for (const r of evaluated) expectError(r, 400, 'INVALID_INPUT');
    expect(evaluated.map((r) => r.body.details.attemptsLeft).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const r of answers.filter((x) => x.status !== 400)) expectError(r, 429, 'RATE_LIMITED');
    // Dead: even the right code is no longer compared.
    expectError(await p.api.post(`/quotes/${q.id}/authorize`, { code: '123456' }), 429, 'RATE_LIMITED');
    const code = await db().oneTimeCode.findFirstOrThrow({ where: { purpose: 'QUOTE_SCA', subject: q.id } });
    expect(code).toMatchObject({ attempts: 5, state: 'EXHAUSTED' });
    expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
  });

  it('an unauthorized quote expires', async () => {
    const q = (await euQuote()).body;
    await advance(p, 121);
    expect((await p.api.get(`/quotes/${q.id}`)).body.status).toBe('EXPIRED');
    expect((await txn(p, q.transactionId)).status).toBe('EXPIRED');
  });
});

it('funds an internal account from outside with a conversion (on-ramp to an internal destination)', async () => {
  const before = await balanceOf(p, h.accounts.EUR);
  const q = (
    await p.api.post('/quotes', {
      ...rtf(8000),
      destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
    })
  ).body;
  await p.api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' });
  await advance(p, 5);
  expect((await balanceOf(p, h.accounts.EUR)).available).toBe(before.available + BigInt(q.totalReceivingAmount));
});
