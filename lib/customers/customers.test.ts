import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { address, business, individual } from './testing';

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

it('gets, updates and deletes a customer', async () => {
  const made = await p.api.post(
    '/customers',
    individual('Mutable Person', { platformCustomerId: 'mut-1', currencies: ['USD'] }),
  );
  const id = made.body.id;
  expect((await p.api.get(`/customers/${id}`)).body.fullName).toBe('Mutable Person');
  expectError(await p.api.get('/customers/Customer:00000000-0000-0000-0000-000000000000'), 404, 'USER_NOT_FOUND');

  const upd = await p.api.patch(`/customers/${id}`, {
    customerType: 'INDIVIDUAL',
    phoneNumber: '+14155550100',
    currencies: ['USD', 'MXN'],
    address: { ...address, city: 'Chicago' },
  });
  expect(upd.status, upd.text).toBe(200);
  expect(upd.body).toMatchObject({
    phoneNumber: '+14155550100',
    currencies: ['USD', 'MXN'],
    fullName: 'Mutable Person',
    address: { city: 'Chicago' },
  });
  const accounts = await p.api.get('/customers/internal-accounts', { query: { customerId: id } });
  expect(
    accounts.body.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code).sort(),
  ).toEqual(['MXN', 'USD']);
  expectError(await p.api.patch(`/customers/${id}`, { customerType: 'BUSINESS' }), 400, 'INVALID_INPUT');

  const del = await p.api.delete(`/customers/${id}`);
  expect(del.status).toBe(200);
  expect(del.body.isDeleted).toBe(true);
  expectError(await p.api.delete(`/customers/${id}`), 410, 'CUSTOMER_DELETED');
  expect((await p.api.get(`/customers/${id}`)).body.isDeleted).toBe(true);
  expectError(
    await p.api.patch(`/customers/${id}`, { customerType: 'INDIVIDUAL', fullName: 'x' }),
    404,
    'USER_NOT_FOUND',
  );
  const closed = await p.api.get('/customers/internal-accounts', { query: { customerId: id } });
  expect(closed.body.data.every((a: { status: string }) => a.status === 'CLOSED')).toBe(true);
  // The platformCustomerId is free again.
  expect((await p.api.post('/customers', individual('Reborn', { platformCustomerId: 'mut-1' }))).status).toBe(201);
});

it('changes an email tied to an EMAIL_OTP credential only through the signed flow (first call 202)', async () => {
  const made = await p.api.post('/customers', individual('Wallet Owner', { email: 'owner@example.com' }));
  const res = await p.api.patch(`/customers/${made.body.id}`, {
    customerType: 'INDIVIDUAL',
    email: 'new@example.com',
  });
  expect(res.status, res.text).toBe(202);
  expect(res.body).toMatchObject({
    payloadToSign: expect.any(String),
    requestId: expect.stringMatching(/^Request:/),
    expiresAt: expect.any(String),
  });
  // Without the wallet holder's signed retry (lib/wallet-auth/contact-sync.test.ts) nothing changes.
  expect((await p.api.get(`/customers/${made.body.id}`)).body.email).toBe('owner@example.com');
  // A customer without a wallet credential changes email freely.
  const plain = await p.api.post('/customers', individual('No Wallet'));
  expect(
    (await p.api.patch(`/customers/${plain.body.id}`, { customerType: 'INDIVIDUAL', email: 'a@example.com' })).status,
  ).toBe(200);
});

it('shows contact verification state only for customers whose region requires it', async () => {
  const eu = await p.api.post(
    '/customers',
    individual('Euro Person', { region: 'DE', email: 'eu@example.com', phoneNumber: '+4930123456' }),
  );
  expect(eu.body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
  const us = await p.api.post('/customers', individual('Us Person', { region: 'US', email: 'us@example.com' }));
  expect(us.body.contactVerification).toBeUndefined();
});

it('lists with filters and pagination', async () => {
  const q = await newPlatform();
  for (let i = 0; i < 3; i++)
    await q.api.post('/customers', individual(`Listed ${i}`, { platformCustomerId: `l-${i}`, region: 'US' }));
  await q.api.post('/customers', business('REG-9', { platformCustomerId: 'biz' }));
  const all = await q.api.get('/customers', { query: { limit: 2 } });
  expect(all.body).toMatchObject({ hasMore: true, totalCount: 4 });
  const next = await q.api.get('/customers', { query: { limit: 2, cursor: all.body.nextCursor } });
  expect(next.body.hasMore).toBe(false);
  expect([...all.body.data, ...next.body.data].map((c: { id: string }) => c.id)).toHaveLength(4);
  expect(
    (await q.api.get('/customers', { query: { customerType: 'BUSINESS' } })).body.data.map(
      (c: { platformCustomerId: string }) => c.platformCustomerId,
    ),
  ).toEqual(['biz']);
  expect((await q.api.get('/customers', { query: { platformCustomerId: 'l-1' } })).body.totalCount).toBe(1);
  expect((await q.api.get('/customers', { query: { region: 'US' } })).body.totalCount).toBe(3);
  expect((await q.api.get('/customers', { query: { currency: 'EUR' } })).body.totalCount).toBe(4);
  const one = (await q.api.get('/customers', { query: { platformCustomerId: 'l-0' } })).body.data[0];
  expect((await q.api.get('/customers', { query: { umaAddress: one.umaAddress.toUpperCase() } })).body.totalCount).toBe(
    1,
  );
  await q.api.delete(`/customers/${one.id}`);
  expect((await q.api.get('/customers')).body.totalCount).toBe(3);
  expect((await q.api.get('/customers', { query: { isIncludingDeleted: true } })).body.totalCount).toBe(4);
  expect((await q.api.get('/customers', { query: { createdAfter: '2999-01-01T00:00:00Z' } })).body.totalCount).toBe(0);
  expectError(await q.api.get('/customers', { query: { isIncludingDeleted: 'yes' } }), 400, 'INVALID_INPUT');
});

it('requires MANAGE to create and VIEW to read', async () => {
  const viewer = await p.withPermissions('VIEW');
  expectError(await viewer.post('/customers', individual('Nope')), 403, 'FORBIDDEN');
  const transact = await p.withPermissions('TRANSACT');
  expectError(await transact.get('/customers'), 403, 'FORBIDDEN');
});
