import { beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { runDueJobs } from '@/lib/jobs/queue';
import { setClockOffset } from '@/lib/platform/repository';
import { freezeClock } from '@/lib/sandbox/clock';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { verifyEvm } from './signatures';
import { evmWallet, SAMPLES, solanaWallet, sparkWallet, tronWallet } from './testing';

// Wallet ownership verification, with wallets holding real keys (testing.ts).
let p: TestPlatform;
let eu: string;
let us: string;
const statusEvents = async (id: string) =>
  (await eventsOf(p.platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED'))
    .filter((e) => e.body.data.id === id)
    .map((e) => e.body.data.status);
const addWallet = async (
  accountType: string,
  currency: string,
  address: string,
  extra: Record<string, unknown> = {},
) => {
  const res = await p.api.post('/customers/external-accounts', {
    customerId: eu,
    currency,
    ownershipType: 'FIRST_PARTY',
    accountInfo: { accountType, address },
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const challenge = (id: string, method = 'WALLET_SIGNATURE', base = '/customers') =>
  p.api.post(`${base}/external-accounts/${id}/challenge`, { method });
const verify = (id: string, signature: string, base = '/customers') =>
  p.api.post(`${base}/external-accounts/${id}/verify`, { signature });

beforeAll(async () => {
  p = await newPlatform();
  eu = (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Eva Euro', region: 'FR' })).body.id;
  us = (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Sam States', region: 'US' })).body.id;
});

it('checks EIP-191 signatures against a published known answer', () => {
  // web3.js documentation: private key 0x4c08…2318 signs "Some data".
  const sig =
    '0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c';
  expect(verifyEvm('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23', 'Some data', sig)).toBe(true);
  expect(verifyEvm('0x2c7536E3605D9C16a7a3D7b1898e529396a65c23', 'Some data!', sig)).toBe(false);
});

it('PENDING_OWNERSHIP_VERIFICATION → UNVERIFIED on a bad signature → ACTIVE after a new challenge succeeds', async () => {
  const wallet = evmWallet();
  const acct = await addWallet('ETHEREUM_WALLET', 'USDC', wallet.address);
  expect(acct.status).toBe('PENDING_OWNERSHIP_VERIFICATION');

  const first = await challenge(acct.id);
  expect(first.status, first.text).toBe(201);
  expect(first.body.method).toBe('WALLET_SIGNATURE');
  expect(first.body.messageToSign).toContain(acct.id);
  expect(first.body.messageToSign).toContain(wallet.address);
  expect(new Date(first.body.expiresAt).getTime()).toBeGreaterThan(Date.now());

  const impostor = evmWallet();
  const bad = await verify(acct.id, impostor.sign(first.body.messageToSign));
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors[0].field).toBe('signature');
  expect((await p.api.get(`/customers/external-accounts/${acct.id}`)).body.status).toBe('UNVERIFIED');
  // The failed challenge is spent.
  expectError(await verify(acct.id, wallet.sign(first.body.messageToSign)), 409, 'CONFLICT');

  const second = await challenge(acct.id);
  expect(second.status).toBe(201);
  expect(second.body.messageToSign).not.toBe(first.body.messageToSign);
  // Issuing the retry challenge keeps the account UNVERIFIED until it succeeds (specification).
  expect((await p.api.get(`/customers/external-accounts/${acct.id}`)).body.status).toBe('UNVERIFIED');
  const good = await verify(acct.id, wallet.sign(second.body.messageToSign));
  expect(good.status, good.text).toBe(200);
  expect(good.body).toMatchObject({ id: acct.id, status: 'ACTIVE' });
  expect(await statusEvents(acct.id)).toEqual(['UNVERIFIED', 'ACTIVE']);
  const events = (await eventsOf(p.platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED')).filter(
    (e) => e.body.data.id === acct.id,
  );
  expect(events[1].body.data).toEqual(good.body);

  expectError(await challenge(acct.id), 409, 'INVALID_STATE_TRANSITION');
  expectError(await verify(acct.id, wallet.sign(second.body.messageToSign)), 409, 'CONFLICT');
});

it('PENDING_OWNERSHIP_VERIFICATION → ACTIVE directly on a first good signature', async () => {
  const wallet = evmWallet();
  const acct = await addWallet('BASE_WALLET', 'USDC', wallet.address.toUpperCase().replace('0X', '0x'));
  const ch = await challenge(acct.id);
  const res = await verify(acct.id, wallet.sign(ch.body.messageToSign));
  expect(res.status, res.text).toBe(200);
  expect(res.body.status).toBe('ACTIVE');
  expect(await statusEvents(acct.id)).toEqual(['ACTIVE']);
});

it.each([
  ['SOLANA_WALLET', 'USDC', solanaWallet],
  ['TRON_WALLET', 'USDT', tronWallet],
  ['SPARK_WALLET', 'BTC', sparkWallet],
  ['POLYGON_WALLET', 'USDC', evmWallet],
  ['PLASMA_WALLET', 'USDT', evmWallet],
] as const)('verifies a %s signature in its chain format', async (type, currency, make) => {
  const wallet = make();
  const other = make();
  const acct = await addWallet(type, currency, wallet.address);
  expect(acct.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
  let ch = await challenge(acct.id);
  expectError(await verify(acct.id, other.sign(ch.body.messageToSign)), 400, 'INVALID_INPUT');
  ch = await challenge(acct.id);
  const res = await verify(acct.id, wallet.sign(ch.body.messageToSign));
  expect(res.status, res.text).toBe(200);
  expect(res.body.status).toBe('ACTIVE');
  expect(await statusEvents(acct.id)).toEqual(['UNVERIFIED', 'ACTIVE']);
});

it('refuses a signature of a replaced challenge and garbage signatures', async () => {
  const wallet = evmWallet();
  const acct = await addWallet('ETHEREUM_WALLET', 'USDT', wallet.address);
  const old = await challenge(acct.id);
  await challenge(acct.id);
  expectError(await verify(acct.id, wallet.sign(old.body.messageToSign)), 400, 'INVALID_INPUT');
  const fresh = await challenge(acct.id);
  expectError(await verify(acct.id, 'not-a-signature'), 400, 'INVALID_INPUT');
  expect((await p.api.get(`/customers/external-accounts/${acct.id}`)).body.status).toBe('UNVERIFIED');
  expectError(await p.api.post(`/customers/external-accounts/${acct.id}/verify`, {}), 400, 'INVALID_INPUT');
  expect(fresh.status).toBe(201);
});

it('an expired challenge fails the attempt', async () => {
  const q = await newPlatform();
  const owner = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Late Signer', region: 'NL' }))
    .body.id;
  const wallet = evmWallet();
  const acct = (
    await q.api.post('/customers/external-accounts', {
      customerId: owner,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'ETHEREUM_WALLET', address: wallet.address },
    })
  ).body;
  const ch = await q.api.post(`/customers/external-accounts/${acct.id}/challenge`, { method: 'WALLET_SIGNATURE' });
  await setClockOffset(q.platformId, 11n * 60_000n);
  const late = await q.api.post(`/customers/external-accounts/${acct.id}/verify`, {
    signature: wallet.sign(ch.body.messageToSign),
  });
  expectError(late, 400, 'INVALID_INPUT');
  expect(late.body.message).toContain('expired');
  expect((await q.api.get(`/customers/external-accounts/${acct.id}`)).body.status).toBe('UNVERIFIED');
});

it('answers 409 when verification does not apply or no challenge is outstanding', async () => {
  const bank = await p.api.post('/customers/external-accounts', {
    customerId: eu,
    currency: 'EUR',
    accountInfo: SAMPLES.find((s) => s.accountType === 'EUR_ACCOUNT')!.info('001'),
  });
  expectError(await challenge(bank.body.id), 409, 'CONFLICT');
  const third = await p.api.post('/customers/external-accounts', {
    customerId: eu,
    currency: 'USDC',
    ownershipType: 'THIRD_PARTY',
    accountInfo: {
      accountType: 'BASE_WALLET',
      address: evmWallet().address,
      beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Shop GmbH' },
    },
  });
  expectError(await challenge(third.body.id), 409, 'CONFLICT');
  const custodial = await addWallet('BASE_WALLET', 'USDC', evmWallet().address, {
    accountInfo: { accountType: 'BASE_WALLET', address: evmWallet().address, vaspName: 'Kraken' },
  });
  expect(custodial.status).toBe('ACTIVE');
  expectError(await challenge(custodial.id), 409, 'CONFLICT');
  const usWallet = await p.api.post('/customers/external-accounts', {
    customerId: us,
    currency: 'USDC',
    ownershipType: 'FIRST_PARTY',
    accountInfo: { accountType: 'BASE_WALLET', address: evmWallet().address },
  });
  expectError(await challenge(usWallet.body.id), 409, 'INVALID_STATE_TRANSITION');
  const pending = await addWallet('BASE_WALLET', 'USDT', evmWallet().address);
  expectError(await verify(pending.id, '0x00'), 409, 'CONFLICT');
  const bad = await p.api.post(`/customers/external-accounts/${pending.id}/challenge`, { method: 'SELFIE' });
  expectError(bad, 400, 'INVALID_INPUT');
  expect(bad.body.details.errors[0]).toMatchObject({
    field: 'method',
    constraint: { enum: ['WALLET_SIGNATURE', 'LIVENESS'] },
  });
  expectError(await challenge('ExternalAccount:00000000-0000-0000-0000-000000000000'), 404, 'REFERENCE_NOT_FOUND');
});

it('LIVENESS completes asynchronously: the sandbox passes it after 30 seconds', async () => {
  const q = await newPlatform();
  await freezeClock(q.platformId); // it moves only when set: not yet at 29 s, done at 30 s
  const owner = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Face Check', region: 'ES' }))
    .body.id;
  const acct = (
    await q.api.post('/customers/external-accounts', {
      customerId: owner,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SOLANA_WALLET', address: solanaWallet().address },
    })
  ).body;
  const ch = await q.api.post(`/customers/external-accounts/${acct.id}/challenge`, { method: 'LIVENESS' });
  expect(ch.status, ch.text).toBe(201);
  expect(ch.body.method).toBe('LIVENESS');
  expect(ch.body.verificationLink).toMatch(/^https?:\/\/.+\/sandbox\/liveness\/Challenge/);
  expectError(await q.api.post(`/customers/external-accounts/${acct.id}/verify`, { signature: 'x' }), 409, 'CONFLICT');
  await setClockOffset(q.platformId, 29_000n);
  await runDueJobs({ platformId: q.platformId });
  expect((await q.api.get(`/customers/external-accounts/${acct.id}`)).body.status).toBe(
    'PENDING_OWNERSHIP_VERIFICATION',
  );
  await setClockOffset(q.platformId, 30_000n);
  await runDueJobs({ platformId: q.platformId });
  expect((await q.api.get(`/customers/external-accounts/${acct.id}`)).body.status).toBe('ACTIVE');
  const events = (await eventsOf(q.platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED')).map((e) => e.body.data.status);
  expect(events).toEqual(['ACTIVE']);
});

it('a replaced LIVENESS challenge has no effect when its simulated outcome arrives', async () => {
  const q = await newPlatform();
  const owner = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Switcher', region: 'IT' }))
    .body.id;
  const wallet = evmWallet();
  const acct = (
    await q.api.post('/customers/external-accounts', {
      customerId: owner,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'ETHEREUM_WALLET', address: wallet.address },
    })
  ).body;
  await q.api.post(`/customers/external-accounts/${acct.id}/challenge`, { method: 'LIVENESS' });
  const sig = await q.api.post(`/customers/external-accounts/${acct.id}/challenge`, { method: 'WALLET_SIGNATURE' });
  await setClockOffset(q.platformId, 31_000n);
  await runDueJobs({ platformId: q.platformId });
  expect((await q.api.get(`/customers/external-accounts/${acct.id}`)).body.status).toBe(
    'PENDING_OWNERSHIP_VERIFICATION',
  );
  expect(
    (
      await q.api.post(`/customers/external-accounts/${acct.id}/verify`, {
        signature: wallet.sign(sig.body.messageToSign),
      })
    ).body.status,
  ).toBe('ACTIVE');
});

it("works for the platform's own wallets under /platform, and not across collections", async () => {
  const wallet = evmWallet();
  const acct = await p.api.post('/platform/external-accounts', {
    currency: 'USDC',
    ownershipType: 'FIRST_PARTY',
    accountInfo: { accountType: 'BASE_WALLET', address: wallet.address },
  });
  expect(acct.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
  expectError(await challenge(acct.body.id), 404, 'REFERENCE_NOT_FOUND');
  const ch = await challenge(acct.body.id, 'WALLET_SIGNATURE', '/platform');
  expect(ch.status, ch.text).toBe(201);
  expectError(await verify(acct.body.id, wallet.sign(ch.body.messageToSign)), 404, 'REFERENCE_NOT_FOUND');
  const res = await verify(acct.body.id, wallet.sign(ch.body.messageToSign), '/platform');
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ status: 'ACTIVE' });
  expect(res.body.customerId).toBeUndefined();
  expect(await statusEvents(acct.body.id)).toEqual(['ACTIVE']);
});
