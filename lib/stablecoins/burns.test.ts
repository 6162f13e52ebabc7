import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { freezeClock } from '@/lib/sandbox/clock';
import { advance, balanceOf, externalAccount, fund } from '@/tests/support/money';
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

// Burns (redemptions) with every source and payout rail. 10_000_000 units are $10.00 (1000 cents).
let p: TestPlatform;
let acme: { id: string };
let usdc: { id: string };
let bank: string;
let usdcAccount: string;
beforeAll(async () => {
  p = await newPlatform();
  // Frozen, the clock moves only when advanced: a step due at 10 s has not happened at 9 s.
  await freezeClock(p.platformId);
  await linkAccount(p);
  acme = await registerCoin(p, 'ACME');
  usdc = await registerCoin(p, 'USDC');
  bank = await externalAccount(p, null, 'USD', '321');
  usdcAccount = await platformAccount(p, 'USDC');
  await fund(p, usdcAccount, 100_000_000);
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});
const burn = (coin: string, body: Record<string, unknown>, headers = keyed()) =>
  p.api.post(
    `/stablecoins/${coin}/burns`,
    {
      amount: '10000000',
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'ACH_CREDIT' },
      ...body,
    },
    headers,
  );

it('EXTERNAL_ACCOUNT source: a deposit address to send the tokens to, then the fiat payout', async () => {
  const res = await burn(acme.id, { source: { type: 'EXTERNAL_ACCOUNT' }, description: 'Redeem ACME' });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    operationType: 'BURN',
    status: 'PENDING_FUNDING',
    amount: '10000000',
    source: { type: 'EXTERNAL_ACCOUNT' },
    destination: { accountId: bank, rail: 'ACH_CREDIT' },
    fundingInstructions: {
      rail: 'SPARK',
      network: 'SPARK',
      address: expect.stringMatching(/^sparkrt1/),
      valueType: 'ACME',
    },
    estimatedDelivery: { rail: 'ACH_CREDIT', amount: '1000', currency: 'USD', timing: '1-3 business days' },
    description: 'Redeem ACME',
  });
  expect(res.body.expiresAt).toBeDefined();
  await advance(p, 10);
  expect((await getOp(p, res.body.id)).status).toBe('PROCESSING');
  expect(await worldBalance(p, 'SPARK', 'ACME')).toBe(-10_000_000n);
  await advance(p, 5);
  expect((await getOp(p, res.body.id)).status).toBe('COMPLETED');
  expect(await worldBalance(p, 'ACH_CREDIT', 'USD')).toBe(1000n);
});

it('GRID_INTERNAL_ACCOUNT source: tokens held, then burned; the fiat paid out', async () => {
  const before = await balanceOf(p, usdcAccount);
  const res = await burn(usdc.id, { source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdcAccount } });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    status: 'PENDING_PROVIDER',
    source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdcAccount },
  });
  expect(res.body.fundingInstructions).toBeUndefined();
  expect(await balanceOf(p, usdcAccount)).toEqual({ available: before.available - 10_000_000n, total: before.total });
  await advance(p, 10);
  expect((await getOp(p, res.body.id)).status).toBe('COMPLETED');
  expect(await balanceOf(p, usdcAccount)).toEqual({
    available: before.available - 10_000_000n,
    total: before.total - 10_000_000n,
  });
  await expectBalanceWebhooksValid(p, usdcAccount);
});

it('PROVIDER_INTERNAL_BALANCE source, paid out on each rail', async () => {
  for (const rail of ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT']) {
    const before = await worldBalance(p, rail, 'USD');
    const res = await burn(acme.id, {
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { rail } });
    expect(res.body.estimatedDelivery.rail).toBe(rail);
    await advance(p, 10);
    expect((await getOp(p, res.body.id)).status).toBe('COMPLETED');
    expect(await worldBalance(p, rail, 'USD')).toBe(before + 1000n);
  }
});

it('magic 005: tokens taken, payout failed, tokens returned to the internal account', async () => {
  const before = await balanceOf(p, usdcAccount);
  const res = await burn(usdc.id, {
    amount: '10050000',
    source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdcAccount },
  });
  await advance(p, 5);
  expect((await balanceOf(p, usdcAccount)).total).toBe(before.total - 10_050_000n);
  await advance(p, 30);
  expect(await getOp(p, res.body.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_PAYOUT_FAILED' });
  expect(await balanceOf(p, usdcAccount)).toEqual(before);
});

it('magic 003: tokens never sent to the deposit address: EXPIRED', async () => {
  const res = await burn(acme.id, { amount: '10030000', source: { type: 'EXTERNAL_ACCOUNT' } });
  await advance(p, 7 * 24 * 3600 + 1);
  expect((await getOp(p, res.body.id)).status).toBe('EXPIRED');
});

it('refuses destinations and sources that cannot take part', async () => {
  const spark = await sparkWallet(p, '777');
  const eur = await externalAccount(p, null, 'EUR', '321');
  const source = { type: 'PROVIDER_INTERNAL_BALANCE' };
  const dest = (externalAccountId: string, rail = 'WIRE') => ({ type: 'EXTERNAL_ACCOUNT', externalAccountId, rail });
  expectError(await burn(acme.id, { source, destination: dest(spark) }), 400, 'INVALID_INPUT');
  expectError(await burn(acme.id, { source, destination: dest(eur) }), 400, 'INVALID_CURRENCY');
  expectError(await burn(acme.id, { source, destination: dest(bank, 'CARRIER_PIGEON') }), 400, 'INVALID_INPUT');
  expectError(
    await burn(acme.id, { source, destination: dest('ExternalAccount:00000000-0000-0000-0000-000000000000') }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  // ACME tokens are not held in the USDC account.
  expectError(
    await burn(acme.id, { source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdcAccount } }),
    400,
    'INVALID_CURRENCY',
  );
  expectError(await burn(acme.id, { source: { type: 'NOPE' } }), 400, 'INVALID_INPUT');
  const huge = await burn(usdc.id, {
    amount: '900000000000',
    source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdcAccount },
  });
  expectError(huge, 400, 'INVALID_INPUT');
  expect(huge.body.details.reason).toBe('INSUFFICIENT_FUNDS');
});
