import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { defaultUmaDepositAccount, getForPayment } from './service';
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

it('gets, lists and deletes; a deleted account is gone and turned INACTIVE with an event', async () => {
  const made = await createUsd('200', { platformAccountId: 'ext-200' });
  expect(made.body.platformAccountId).toBe('ext-200');
  const id = made.body.id;
  expect((await p.api.get(`/customers/external-accounts/${id}`)).body).toEqual(made.body);
  const del = await p.api.delete(`/customers/external-accounts/${id}`);
  expect(del.status, del.text).toBe(204);
  expect(del.text).toBe('');
  expectError(await p.api.get(`/customers/external-accounts/${id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await p.api.delete(`/customers/external-accounts/${id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(
    await p.api.get('/customers/external-accounts/ExternalAccount:00000000-0000-0000-0000-000000000000'),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.get('/customers/external-accounts/not-an-id'), 404, 'REFERENCE_NOT_FOUND');
  const events = (await eventsOf(p.platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED')).filter((e) => e.body.data.id === id);
  expect(events.map((e) => e.body.data.status)).toEqual(['INACTIVE']);
  expect(events[0].body.data).toMatchObject({ ...made.body, status: 'INACTIVE' });
  expect(await getForPayment(p.platformId, id, db())).toBeNull();
});

describe('platform accounts', () => {
  it('lives in its own collection: 404 across collections, both ways', async () => {
    const plat = await p.api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('300') });
    expect(plat.status, plat.text).toBe(201);
    expect(plat.body.customerId).toBeUndefined();
    const cust = await createUsd('300');
    expect(cust.status).toBe(201); // same identifier, different owner: not a duplicate
    expect((await p.api.get(`/platform/external-accounts/${plat.body.id}`)).body).toEqual(plat.body);
    expectError(await p.api.get(`/customers/external-accounts/${plat.body.id}`), 404, 'REFERENCE_NOT_FOUND');
    expectError(await p.api.get(`/platform/external-accounts/${cust.body.id}`), 404, 'REFERENCE_NOT_FOUND');
    expectError(await p.api.delete(`/customers/external-accounts/${plat.body.id}`), 404, 'REFERENCE_NOT_FOUND');
    expectError(await p.api.delete(`/platform/external-accounts/${cust.body.id}`), 404, 'REFERENCE_NOT_FOUND');
    const list = await p.api.get('/platform/external-accounts');
    expect(list.body.data.every((a: { customerId?: string }) => a.customerId === undefined)).toBe(true);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(plat.body.id);
    expect((await p.api.get('/customers/external-accounts')).body.data.map((a: { id: string }) => a.id)).not.toContain(
      plat.body.id,
    );
    expect((await p.api.delete(`/platform/external-accounts/${plat.body.id}`)).status).toBe(204);
    expectError(await p.api.get(`/platform/external-accounts/${plat.body.id}`), 404, 'REFERENCE_NOT_FOUND');
  });

  it('refuses customerId on the platform endpoint; the customer endpoint without one creates a platform account', async () => {
    const res = await p.api.post('/platform/external-accounts', {
      customerId,
      currency: 'USD',
      accountInfo: usdInfo('301'),
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['customerId']);
    const implicit = await p.api.post('/customers/external-accounts', {
      currency: 'USD',
      accountInfo: usdInfo('302'),
    });
    expect(implicit.status, implicit.text).toBe(201);
    expect(implicit.body.customerId).toBeUndefined();
    expect((await p.api.get(`/platform/external-accounts/${implicit.body.id}`)).status).toBe(200);
  });
});

it('refuses an unknown or deleted customer as a field error', async () => {
  const res = await createUsd('400', { customerId: 'Customer:00000000-0000-0000-0000-000000000000' });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors[0].field).toBe('customerId');
  const gone = await newCustomer();
  await p.api.delete(`/customers/${gone}`);
  expectError(await createUsd('401', { customerId: gone }), 400, 'INVALID_INPUT');
});

describe('defaultUmaDepositAccount', () => {
  it('keeps at most one per customer: a new default replaces the old one', async () => {
    const owner = await newCustomer();
    expect(await defaultUmaDepositAccount(p.platformId, owner, db())).toBeNull();
    const a = await createUsd('500', { customerId: owner, defaultUmaDepositAccount: true });
    expect(a.body.defaultUmaDepositAccount).toBe(true);
    expect((await defaultUmaDepositAccount(p.platformId, owner, db()))?.id).toBe(a.body.id);
    const b = await p.api.post('/customers/external-accounts', {
      customerId: owner,
      currency: 'EUR',
      accountInfo: sample('EUR_ACCOUNT').info('501'),
      defaultUmaDepositAccount: true,
    });
    expect(b.body.defaultUmaDepositAccount).toBe(true);
    expect((await p.api.get(`/customers/external-accounts/${a.body.id}`)).body.defaultUmaDepositAccount).toBe(false);
    const c = await createUsd('502', { customerId: owner });
    expect(c.body.defaultUmaDepositAccount).toBe(false);
    const dflt = await defaultUmaDepositAccount(p.platformId, owner, db());
    expect(dflt).toMatchObject({
      id: b.body.id,
      customerId: owner,
      currency: 'EUR',
      accountType: 'EUR_ACCOUNT',
      status: 'ACTIVE',
      primaryIdentifier: b.body.accountInfo.iban,
    });
    expect(dflt?.beneficiary).toMatchObject({ beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    // Another customer's default is untouched.
    expect((await p.api.get(`/customers/external-accounts/${a.body.id}`)).body.defaultUmaDepositAccount).toBe(false);
    // Deleting the default leaves the customer without one.
    await p.api.delete(`/customers/external-accounts/${b.body.id}`);
    expect(await defaultUmaDepositAccount(p.platformId, owner, db())).toBeNull();
  });

  it('is enforced by the database too', async () => {
    const owner = await newCustomer();
    const a = await createUsd('510', { customerId: owner, defaultUmaDepositAccount: true });
    const b = await createUsd('511', { customerId: owner });
    await expect(
      db().externalAccount.update({ where: { id: b.body.id }, data: { defaultUmaDepositAccount: true } }),
    ).rejects.toThrow();
    expect(a.body.defaultUmaDepositAccount).toBe(true);
  });

  it('needs a customer', async () => {
    const res = await p.api.post('/customers/external-accounts', {
      currency: 'USD',
      accountInfo: usdInfo('512'),
      defaultUmaDepositAccount: true,
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('defaultUmaDepositAccount');
  });
});

it('paginates and filters lists', async () => {
  const q = await newPlatform();
  const owner = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Lister' })).body.id;
  const other = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Other' })).body.id;
  const made: string[] = [];
  for (let i = 0; i < 3; i++)
    made.push(
      (
        await q.api.post('/customers/external-accounts', {
          customerId: owner,
          currency: 'USD',
          accountInfo: usdInfo(`80${i}`),
        })
      ).body.id,
    );
  made.push(
    (
      await q.api.post('/customers/external-accounts', {
        customerId: owner,
        currency: 'EUR',
        accountInfo: sample('EUR_ACCOUNT').info('803'),
      })
    ).body.id,
  );
  await q.api.post('/customers/external-accounts', {
    customerId: other,
    currency: 'USD',
    accountInfo: usdInfo('804'),
  });
  await q.api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('805') });

  const page1 = await q.api.get('/customers/external-accounts', { query: { customerId: owner, limit: 3 } });
  expect(page1.body).toMatchObject({ hasMore: true, totalCount: 4 });
  expect(page1.body.data).toHaveLength(3);
  const page2 = await q.api.get('/customers/external-accounts', {
    query: { customerId: owner, limit: 3, cursor: page1.body.nextCursor },
  });
  expect(page2.body).toMatchObject({ hasMore: false, totalCount: 4 });
  expect(page2.body.nextCursor).toBeUndefined();
  expect([...page1.body.data, ...page2.body.data].map((a: { id: string }) => a.id).sort()).toEqual([...made].sort());
  expect(page1.body.data[0].id).toBe(made[3]); // newest first

  expect(
    (await q.api.get('/customers/external-accounts', { query: { customerId: owner, currency: 'EUR' } })).body
      .totalCount,
  ).toBe(1);
  expect((await q.api.get('/customers/external-accounts')).body.totalCount).toBe(5);
  expect((await q.api.get('/customers/external-accounts', { query: { currency: 'USD' } })).body.totalCount).toBe(4);
  expect((await q.api.get('/platform/external-accounts')).body.totalCount).toBe(1);
  expect((await q.api.get('/platform/external-accounts', { query: { currency: 'EUR' } })).body.totalCount).toBe(0);
  await q.api.delete(`/customers/external-accounts/${made[0]}`);
  expect((await q.api.get('/customers/external-accounts', { query: { customerId: owner } })).body.totalCount).toBe(3);
  expectError(await q.api.get('/customers/external-accounts', { query: { limit: 0 } }), 400, 'INVALID_INPUT');
  expectError(await q.api.get('/customers/external-accounts', { query: { cursor: 'garbage' } }), 400, 'INVALID_INPUT');
  // Another platform sees none of it.
  expect((await p.api.get('/customers/external-accounts', { query: { customerId: owner } })).body.totalCount).toBe(0);
  expectError(await p.api.get(`/customers/external-accounts/${made[1]}`), 404, 'REFERENCE_NOT_FOUND');
});

it('exposes payment facts for the money-movement code', async () => {
  const made = await createUsd('950');
  const acct = await getForPayment(p.platformId, made.body.id, db());
  expect(acct).toEqual({
    id: made.body.id,
    customerId,
    currency: 'USD',
    accountType: 'USD_ACCOUNT',
    primaryIdentifier: made.body.accountInfo.accountNumber,
    status: 'ACTIVE',
    accountInfo: made.body.accountInfo,
    beneficiary: made.body.accountInfo.beneficiary,
  });
  const plat = await p.api.post('/platform/external-accounts', {
    currency: 'BTC',
    accountInfo: sample('SPARK_WALLET').info('951'),
  });
  expect(await getForPayment(p.platformId, plat.body.id, db())).toMatchObject({
    customerId: null,
    beneficiary: null,
    primaryIdentifier: plat.body.accountInfo.address,
  });
  const q = await newPlatform();
  expect(await getForPayment(q.platformId, made.body.id, db())).toBeNull();
});

it('requires MANAGE to write and VIEW to read', async () => {
  const made = await createUsd('960');
  const viewer = await p.withPermissions('VIEW');
  expectError(
    await viewer.post('/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usdInfo('961') }),
    403,
    'FORBIDDEN',
  );
  expectError(
    await viewer.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('962') }),
    403,
    'FORBIDDEN',
  );
  expectError(await viewer.delete(`/customers/external-accounts/${made.body.id}`), 403, 'FORBIDDEN');
  expectError(
    await viewer.post(`/customers/external-accounts/${made.body.id}/challenge`, { method: 'WALLET_SIGNATURE' }),
    403,
    'FORBIDDEN',
  );
  expectError(
    await viewer.post(`/customers/external-accounts/${made.body.id}/verify`, { signature: '0x00' }),
    403,
    'FORBIDDEN',
  );
  expectError(await viewer.post(`/customers/external-accounts/${made.body.id}/trust`), 403, 'FORBIDDEN');
  expectError(
    await viewer.post(`/customers/external-accounts/${made.body.id}/untrust/confirm`, { code: '000000' }),
    403,
    'FORBIDDEN',
  );
  expect((await viewer.get(`/customers/external-accounts/${made.body.id}`)).status).toBe(200);
  expect((await viewer.get('/customers/external-accounts')).status).toBe(200);
  expect((await viewer.get('/platform/external-accounts')).status).toBe(200);
  const transact = await p.withPermissions('TRANSACT');
  expectError(await transact.get('/customers/external-accounts'), 403, 'FORBIDDEN');
  expectError(await transact.get(`/platform/external-accounts/${made.body.id}`), 403, 'FORBIDDEN');
  expectError(await p.api.get('/customers/external-accounts', { authorization: null }), 401, 'UNAUTHORIZED');
  expect((await p.api.get(`/customers/external-accounts/${made.body.id}`)).status).toBe(200);
});
