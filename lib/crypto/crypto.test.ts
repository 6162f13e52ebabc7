import { beforeAll, expect, it } from 'vitest';
import { midRate, RATE_WINDOW_MS } from '@/lib/fx/rates';
import { setClockOffset } from '@/lib/platform/repository';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';

const SOLANA_ADDRESS = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const TRON_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const LN_INVOICE = 'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq';
const SPARK_ADDRESS = 'sp1pgss9yvs3qpnj5dhm6q8x7vu5ts0dvqezhkcp6gl4ukkt8dxdkhqvyzqhj4';

/** Expected total fee: `fee` smallest units of the token, in the asset's smallest units, rounded up. */
function converted(
  fee: bigint,
  token: string,
  tokenDecimals: number,
  asset: string,
  assetDecimals: number,
  at: Date,
): bigint {
  const r = midRate(token, asset, at).rate;
  const num = fee * r.num * 10n ** BigInt(assetDecimals);
  const den = r.den * 10n ** BigInt(tokenDecimals);
  return (num + den - 1n) / den;
}

// The operation under test: POST /crypto/estimate-withdrawal-fee.
let p: TestPlatform;
let other: TestPlatform;
let at: Date;
const account: Record<string, string> = {};

beforeAll(async () => {
  p = await newPlatform({ currencies: ['USD', 'USDC', 'USDT', 'BTC'] });
  other = await newPlatform({ currencies: ['USDC'] });
  // Two minutes into a rate window, so the expected conversions use the same rate.
  at = new Date((Math.floor(Date.now() / RATE_WINDOW_MS) + 3) * RATE_WINDOW_MS + 120_000);
  await setClockOffset(p.platformId, BigInt(at.getTime() - Date.now()));
  const list = await p.api.get('/platform/internal-accounts', { query: { limit: 100 } });
  for (const a of list.body.data) account[a.balance.currency.code] = a.id;
  const o = await other.api.get('/platform/internal-accounts');
  account.OTHER_USDC = o.body.data.find(
    (a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USDC',
  ).id;
});

const estimate = (body: Record<string, unknown>, api = p.api) => api.post('/crypto/estimate-withdrawal-fee', body);
const usdc = (extra: Record<string, unknown> = {}) => ({
  internalAccountId: account.USDC,
  currency: 'USDC',
  cryptoNetwork: 'SOLANA',
  amount: 1_000_000,
  destinationAddress: SOLANA_ADDRESS,
  ...extra,
});

it('USDC on Solana: the fee is paid in SOL lamports and converted to USDC at the window rate', async () => {
  const res = await estimate(usdc());
  expect(res.status, res.text).toBe(200);
  const total = converted(15_000n, 'SOL', 9, 'USDC', 6, at);
  expect(total).toBeGreaterThan(0n);
  expect(res.body).toEqual({
    networkFee: 15000,
    networkFeeAsset: 'SOL',
    applicationFee: 0,
    totalFee: Number(total),
    netAmount: Number(1_000_000n - total),
  });
});

it.each([
  ['USDC', 'ETHEREUM', EVM_ADDRESS, 'ETH', 18, 65_000n * 20_000_000_000n],
  ['USDC', 'BASE', EVM_ADDRESS, 'ETH', 18, 65_000n * 50_000_000n],
  ['USDC', 'POLYGON', EVM_ADDRESS, 'POL', 18, 65_000n * 40_000_000_000n],
  ['USDT', 'TRON', TRON_ADDRESS, 'TRX', 6, 13_000_000n],
  ['USDT', 'ETHEREUM', EVM_ADDRESS, 'ETH', 18, 65_000n * 20_000_000_000n],
  ['USDT', 'SOLANA', SOLANA_ADDRESS, 'SOL', 9, 15_000n],
  ['USDT', 'PLASMA', EVM_ADDRESS, 'XPL', 18, 0n],
  ['BTC', 'BITCOIN', BTC_ADDRESS, 'BTC', 8, 1_400n],
  ['BTC', 'SPARK', SPARK_ADDRESS, 'BTC', 8, 0n],
])('%s on %s', async (asset, network, destinationAddress, token, decimals, fee) => {
  const amount = asset === 'BTC' ? 5_000_000n : 250_000_000n;
  const res = await estimate({
    internalAccountId: account[asset],
    currency: asset,
    cryptoNetwork: network,
    amount,
    destinationAddress,
  });
  expect(res.status, res.text).toBe(200);
  const total = converted(fee, token, decimals, asset, asset === 'BTC' ? 8 : 6, at);
  expect(res.body.networkFeeAsset).toBe(token);
  expect(BigInt(res.body.networkFee)).toBe(fee);
  expect(BigInt(res.body.totalFee)).toBe(total);
  expect(BigInt(res.body.netAmount)).toBe(amount - total);
  expect(res.body.applicationFee).toBe(0);
});

it('Lightning routing fees scale with the amount; a Lightning address is a destination too', async () => {
  const small = await estimate({
    internalAccountId: account.BTC,
    currency: 'BTC',
    cryptoNetwork: 'LIGHTNING',
    amount: 10_000,
    destinationAddress: LN_INVOICE,
  });
  expect(small.body).toEqual({
    networkFee: 6,
    networkFeeAsset: 'BTC',
    applicationFee: 0,
    totalFee: 6,
    netAmount: 9994,
  });
  const large = await estimate({
    internalAccountId: account.BTC,
    currency: 'BTC',
    cryptoNetwork: 'lightning',
    amount: 2_000_000,
    destinationAddress: 'alice@walletofsatoshi.com',
  });
  expect(large.body).toMatchObject({ networkFee: 1001, totalFee: 1001, netAmount: 1_998_999 });
});

it('keeps amounts beyond 2^53 exact', async () => {
  const res = await estimate(usdc({ amount: 9007199254740993n }));
  expect(res.status, res.text).toBe(200);
  expect(BigInt(res.body.netAmount)).toBe(9007199254740993n - BigInt(res.body.totalFee));
});

it('refuses an amount the fees consume with AMOUNT_OUT_OF_RANGE', async () => {
  const res = await estimate(usdc({ cryptoNetwork: 'ETHEREUM', destinationAddress: EVM_ADDRESS, amount: 100 }));
  expectError(res, 400, 'AMOUNT_OUT_OF_RANGE');
  expectError(await estimate(usdc({ amount: 0 })), 400, 'INVALID_INPUT');
  // A missing amount is reported as missing, not as a bad value.
  const missing = await estimate(usdc({ amount: undefined }));
  expectError(missing, 400, 'INVALID_INPUT');
  expect(missing.body.details.errors).toEqual([expect.objectContaining({ field: 'amount', message: 'is required' })]);
});

it('refuses unknown networks, asset/network pairs that do not exist and malformed addresses', async () => {
  const unknown = await estimate(usdc({ cryptoNetwork: 'DOGECOIN' }));
  expectError(unknown, 400, 'INVALID_INPUT');
  expect(unknown.body.details.errors[0]).toMatchObject({
    field: 'cryptoNetwork',
    constraint: { enum: expect.arrayContaining(['SOLANA', 'LIGHTNING']) },
  });

  const wrongPair = await estimate(usdc({ cryptoNetwork: 'BITCOIN', destinationAddress: BTC_ADDRESS }));
  expectError(wrongPair, 400, 'INVALID_INPUT');
  expect(wrongPair.body.details.errors).toEqual([
    {
      field: 'cryptoNetwork',
      message: 'USDC cannot be withdrawn on BITCOIN',
      constraint: { enum: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON'] },
    },
  ]);

  const badAddress = await estimate(usdc({ cryptoNetwork: 'ETHEREUM', destinationAddress: SOLANA_ADDRESS }));
  expectError(badAddress, 400, 'INVALID_INPUT');
  expect(badAddress.body.details.errors[0].field).toBe('destinationAddress');

  // Every problem at once.
  const both = await estimate({
    internalAccountId: account.USDT,
    currency: 'USDT',
    cryptoNetwork: 'LIGHTNING',
    amount: 5,
    destinationAddress: 'nope',
  });
  expect(both.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
    'cryptoNetwork',
    'destinationAddress',
  ]);

  for (const [network, address] of [
    ['SOLANA', '0OIl' + 'a'.repeat(40)],
    ['TRON', EVM_ADDRESS],
    ['BITCOIN', 'bc1' + 'b'.repeat(30)],
    ['SPARK', BTC_ADDRESS],
  ]) {
    const asset = network === 'BITCOIN' || network === 'SPARK' ? 'BTC' : 'USDT';
    const res = await estimate({
      internalAccountId: account[asset],
      currency: asset,
      cryptoNetwork: network,
      amount: 5_000_000,
      destinationAddress: address,
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('destinationAddress');
  }
});

it('refuses currencies that are not crypto assets with INVALID_CURRENCY', async () => {
  for (const currency of ['USD', 'DOGE']) {
    const res = await estimate(usdc({ currency }));
    expectError(res, 400, 'INVALID_CURRENCY');
    expect(res.body.details.errors[0].field).toBe('currency');
  }
});

it("answers 404 for an unknown internal account or another platform's", async () => {
  expectError(
    await estimate(usdc({ internalAccountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' })),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await estimate(usdc({ internalAccountId: 'garbage' })), 404, 'REFERENCE_NOT_FOUND');
  expectError(await estimate(usdc({ internalAccountId: account.OTHER_USDC })), 404, 'REFERENCE_NOT_FOUND');
  expect((await estimate(usdc({ internalAccountId: account.OTHER_USDC }), other.api)).status).toBe(200);
});

it('refuses a fiat account and an account of another asset', async () => {
  const fiat = await estimate(usdc({ internalAccountId: account.USD }));
  expectError(fiat, 400, 'INVALID_INPUT');
  expect(fiat.body.details.errors[0].field).toBe('internalAccountId');
  const mismatch = await estimate(usdc({ internalAccountId: account.USDT }));
  expectError(mismatch, 400, 'INVALID_INPUT');
  expect(mismatch.body.details.errors[0]).toMatchObject({
    field: 'currency',
    message: expect.stringContaining('holds USDT'),
  });
});

it('needs the VIEW permission', async () => {
  expect((await estimate(usdc(), await p.withPermissions('VIEW'))).status).toBe(200);
  expectError(await estimate(usdc(), await p.withPermissions('TRANSACT')), 403, 'FORBIDDEN');
});
