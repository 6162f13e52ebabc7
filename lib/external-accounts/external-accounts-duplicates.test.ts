import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { sample, usdInfo } from './testing';

let p: TestPlatform;
let customerId: string;
const newCustomer = async (extra: Record<string, unknown> = {}) =>
  (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Owner Person', region: 'US', ...extra }))
    .body.id as string;
const createUsd = (sfx: string, body: Record<string, unknown> = {}) =>
  p.api.post('/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usdInfo(sfx), ...body });

beforeAll(async () => {
  p = await newPlatform();
  customerId = await newCustomer();
});

describe('duplicates', () => {
  it('refuses the same owner, currency and identifier with 409 CONFLICT', async () => {
    const first = await createUsd('600');
    const dup = await createUsd('600');
    expectError(dup, 409, 'CONFLICT');
    expect(dup.body.details.externalAccountId).toBe(first.body.id);
    const evm = sample('ETHEREUM_WALLET').info('601');
    expect(
      (await p.api.post('/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: evm })).status,
    ).toBe(201);
    const upper = { ...evm, address: `0x${String(evm.address).slice(2).toUpperCase()}` };
    expectError(
      await p.api.post('/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: upper }),
      409,
      'CONFLICT',
    );
    // The routing number identifies the bank; a differently spelled bank name does not make another account.
    expectError(
      await createUsd('600', { accountInfo: usdInfo('600', { bankName: 'JPMorgan Chase' }) }),
      409,
      'CONFLICT',
    );
    const iban = sample('EUR_ACCOUNT').info('602');
    expect(
      (await p.api.post('/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: iban })).status,
    ).toBe(201);
    // An IBAN names the account by itself: the same IBAN without a BIC is the same account.
    const withoutBic = { ...iban, swiftCode: undefined };
    expectError(
      await p.api.post('/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: withoutBic }),
      409,
      'CONFLICT',
    );
  });

  it('allows it for another owner, another currency, another bank or chain, or after deletion', async () => {
    const first = await createUsd('610');
    expect((await createUsd('610', { customerId: await newCustomer() })).status).toBe(201);
    expect((await createUsd('610', { accountInfo: usdInfo('610', { routingNumber: '011000015' }) })).status).toBe(201);
    const evm = sample('ETHEREUM_WALLET').info('611');
    expect(
      (await p.api.post('/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: evm })).status,
    ).toBe(201);
    expect(
      (await p.api.post('/customers/external-accounts', { customerId, currency: 'USDT', accountInfo: evm })).status,
    ).toBe(201);
    expect(
      (
        await p.api.post('/customers/external-accounts', {
          customerId,
          currency: 'USDC',
          accountInfo: { ...evm, accountType: 'BASE_WALLET' },
        })
      ).status,
    ).toBe(201);
    await p.api.delete(`/customers/external-accounts/${first.body.id}`);
    expect((await createUsd('610')).status).toBe(201);
  });
});

it('stays consistent under concurrent creates: one duplicate wins, one default remains', async () => {
  const same = () => p.api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('630') });
  const platformRace = await Promise.all([same(), same(), same()]);
  expect(platformRace.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  const owner = await newCustomer();
  const customerRace = await Promise.all([0, 1, 2].map(() => createUsd('631', { customerId: owner })));
  expect(customerRace.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  await Promise.all(
    ['632', '633', '634'].map((sfx) => createUsd(sfx, { customerId: owner, defaultUmaDepositAccount: true })),
  );
  const all = (await p.api.get('/customers/external-accounts', { query: { customerId: owner } })).body.data;
  expect(all.filter((a: { defaultUmaDepositAccount: boolean }) => a.defaultUmaDepositAccount)).toHaveLength(1);
});

it('accepts SLV or USD for the SLV corridor', async () => {
  const s = sample('SLV_ACCOUNT');
  for (const currency of ['SLV', 'USD']) {
    expect(
      (
        await p.api.post('/customers/external-accounts', {
          customerId,
          currency,
          accountInfo: s.info(currency === 'SLV' ? '620' : '621'),
        })
      ).status,
    ).toBe(201);
  }
});

it('replays a create with the same Idempotency-Key', async () => {
  const key = crypto.randomUUID();
  const a = await createUsd('700', {});
  expect(a.status).toBe(201);
  const first = await p.api.post(
    '/customers/external-accounts',
    { customerId, currency: 'USD', accountInfo: usdInfo('701') },
    { headers: { 'idempotency-key': key } },
  );
  const again = await p.api.post(
    '/customers/external-accounts',
    { customerId, currency: 'USD', accountInfo: usdInfo('701') },
    { headers: { 'idempotency-key': key } },
  );
  expect(again.status).toBe(201);
  expect(again.text).toBe(first.text);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
});
