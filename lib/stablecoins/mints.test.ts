import { afterEach, beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { freezeClock } from '@/lib/sandbox/clock';
import { advance, balanceOf, externalAccount, fund } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import {
  expectBalanceWebhooksValid,
  getOp,
  keyed,
  linkAccount,
  platformAccount,
  registerCoin,
  sparkWallet,
  worldBalance,
} from './testing';

// Mints with every funding source and destination, on the sandbox clock. ACME has 6 decimals, so
// 10_000_000 units are $10.00 (1000 cents). The value in cents decides the sandbox outcome: ends in
// 002 refused when the provider gets to it, 003 awaited funds never arrive (EXPIRED after 7 days),
// 005 fails 30 s into processing (funds returned); otherwise completed.
const TEN = '10000000';
let p: TestPlatform;
let acme: { id: string };
let usdc: { id: string };
let spark: string;
let bank: string;
let usd: string;
let usdcAccount: string;
beforeAll(async () => {
  p = await newPlatform();
  // Frozen, the clock moves only when advanced: a step due at 10 s has not happened at 9 s.
  await freezeClock(p.platformId);
  await linkAccount(p);
  acme = await registerCoin(p, 'ACME');
  // A token whose symbol is a currency the platform holds: Grid-managed destinations.
  usdc = await registerCoin(p, 'USDC');
  spark = await sparkWallet(p);
  bank = await externalAccount(p, null, 'USD', '321');
  usd = await platformAccount(p, 'USD');
  usdcAccount = await platformAccount(p, 'USDC');
  await fund(p, usd, 1_000_000);
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});
const mint = (coin: string, body: Record<string, unknown>, headers = keyed()) =>
  p.api.post(`/stablecoins/${coin}/mints`, { amount: TEN, destination: { accountId: spark }, ...body }, headers);

it('WIRE: funding instructions, PENDING_FUNDING, then PROCESSING when the wire lands, then COMPLETED', async () => {
  const wireBefore = await worldBalance(p, 'WIRE', 'USD');
  const res = await mint(acme.id, { fundingSource: { type: 'WIRE' }, description: 'Initial program funding mint' });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    id: expect.stringMatching(/^StablecoinOperation:/),
    stablecoinId: acme.id,
    operationType: 'MINT',
    status: 'PENDING_FUNDING',
    amount: TEN,
    provider: 'BRALE',
    providerEnvironment: 'SANDBOX',
    source: { type: 'WIRE' },
    destination: { accountId: spark },
    fundingInstructions: { rail: 'WIRE', amount: '1000', currency: 'USD', routingNumber: '021000021' },
    providerStatus: 'awaiting_funds',
    description: 'Initial program funding mint',
  });
  const created = new Date(res.body.createdAt).getTime();
  expect(new Date(res.body.expiresAt).getTime() - created).toBe(7 * 24 * 3600 * 1000);
  await advance(p, 10);
  expect(await getOp(p, res.body.id)).toMatchObject({ status: 'PROCESSING', providerStatus: 'processing' });
  expect(await worldBalance(p, 'WIRE', 'USD')).toBe(wireBefore - 1000n);
  const sparkBefore = await worldBalance(p, 'SPARK', 'ACME');
  await advance(p, 5);
  expect(await getOp(p, res.body.id)).toMatchObject({ status: 'COMPLETED', providerStatus: 'complete' });
  expect(await worldBalance(p, 'SPARK', 'ACME')).toBe(sparkBefore + 10_000_000n);
});

it('ACH_DEBIT and SAME_DAY_ACH_DEBIT: PENDING_PROVIDER, completed once the provider pulls', async () => {
  for (const type of ['ACH_DEBIT', 'SAME_DAY_ACH_DEBIT']) {
    const rail = type === 'ACH_DEBIT' ? 'ACH' : 'SAME_DAY_ACH';
    const before = await worldBalance(p, rail, 'USD');
    const res = await mint(acme.id, { fundingSource: { type, externalAccountId: bank } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'PENDING_PROVIDER', source: { type, externalAccountId: bank } });
    expect(res.body.fundingInstructions).toBeUndefined();
    expect(res.body.expiresAt).toBeUndefined();
    // The clock jumps past both steps: funds received and completion are applied together.
    await advance(p, 20);
    expect((await getOp(p, res.body.id)).status).toBe('COMPLETED');
    expect(await worldBalance(p, rail, 'USD')).toBe(before - 1000n);
  }
});

it('GRID_INTERNAL_ACCOUNT: the funds are held at once and leave when the provider takes them', async () => {
  const before = await balanceOf(p, usd);
  const res = await mint(acme.id, { fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd } });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    status: 'PENDING_PROVIDER',
    source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
  });
  expect(await balanceOf(p, usd)).toEqual({ available: before.available - 1000n, total: before.total });
  await advance(p, 5);
  expect((await getOp(p, res.body.id)).status).toBe('PROCESSING');
  expect(await balanceOf(p, usd)).toEqual({ available: before.available - 1000n, total: before.total - 1000n });
  await advance(p, 5);
  expect((await getOp(p, res.body.id)).status).toBe('COMPLETED');
  await expectBalanceWebhooksValid(p, usd);
});

it('PROVIDER_INTERNAL_BALANCE: the provider spends its held balance', async () => {
  const source = { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' };
  const res = await mint(acme.id, { fundingSource: source });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({ status: 'PENDING_PROVIDER', source });
  await advance(p, 10);
  expect((await getOp(p, res.body.id)).status).toBe('COMPLETED');
  expect(await worldBalance(p, 'BRALE_BALANCE', 'USD')).toBe(-1000n);
});

it('an InternalAccount destination in the token currency is credited on completion', async () => {
  const before = await balanceOf(p, usdcAccount);
  const res = await mint(usdc.id, { fundingSource: { type: 'WIRE' }, destination: { accountId: usdcAccount } });
  expect(res.status, res.text).toBe(201);
  expect(res.body.destination).toEqual({ accountId: usdcAccount });
  await advance(p, 15);
  expect((await getOp(p, res.body.id)).status).toBe('COMPLETED');
  expect(await balanceOf(p, usdcAccount)).toEqual({
    available: before.available + 10_000_000n,
    total: before.total + 10_000_000n,
  });
  await expectBalanceWebhooksValid(p, usdcAccount);
});

it('magic 002: refused by the provider, the held funds released', async () => {
  const before = await balanceOf(p, usd);
  const res = await mint(acme.id, {
    amount: '10020000',
    fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
  });
  expect(res.status, res.text).toBe(201);
  expect((await balanceOf(p, usd)).available).toBe(before.available - 1002n);
  await advance(p, 5);
  expect(await getOp(p, res.body.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
  expect(await balanceOf(p, usd)).toEqual(before);
});

it('magic 005: processing, then failed 30 s later with the funds returned', async () => {
  const before = await balanceOf(p, usd);
  const res = await mint(acme.id, {
    amount: '10050000',
    fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd },
  });
  await advance(p, 5);
  expect((await getOp(p, res.body.id)).status).toBe('PROCESSING');
  expect((await balanceOf(p, usd)).total).toBe(before.total - 1005n);
  await advance(p, 30);
  expect(await getOp(p, res.body.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_MINT_FAILED' });
  expect(await balanceOf(p, usd)).toEqual(before);
  const rows = await db().ledgerTransfer.findMany({
    where: { transactionId: res.body.id },
    orderBy: { createdAt: 'asc' },
  });
  expect(rows.map((r) => r.kind)).toEqual(['STABLECOIN_HOLD', 'STABLECOIN_FUNDS_IN', 'STABLECOIN_REFUND']);
});

it('magic 003: the wire never arrives and the mint EXPIRES after its funding window', async () => {
  const res = await mint(acme.id, { amount: '10030000', fundingSource: { type: 'WIRE' } });
  await advance(p, 3600);
  expect((await getOp(p, res.body.id)).status).toBe('PENDING_FUNDING');
  await advance(p, 7 * 24 * 3600);
  expect(await getOp(p, res.body.id)).toMatchObject({ status: 'EXPIRED', providerStatus: 'expired' });
  expect(await db().ledgerTransfer.count({ where: { transactionId: res.body.id } })).toBe(0);
});
