import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';

let p: TestPlatform;
let a: Holder;
let b: Holder;
const ids: string[] = [];
beforeAll(async () => {
  p = await newPlatform();
  a = await customerWithAccounts(p, 'Ann List', ['USD', 'EUR'], { platformCustomerId: 'ann' });
  b = await customerWithAccounts(p, 'Ben List', ['USD'], { platformCustomerId: 'ben' });
  await fund(p, a.accounts.USD, 100000);
  await fund(p, b.accounts.USD, 100000);
  const destA = await externalAccount(p, a.customerId, 'USD', '201');
  const destB = await externalAccount(p, b.customerId, 'USD', '202');
  for (let i = 0; i < 3; i++) {
    ids.push(
      (
        await p.api.post('/transfer-out', {
          source: { accountId: a.accounts.USD },
          destination: { accountId: destA },
          amount: 100 + i,
        })
      ).body.id,
    );
    await advance(p, 1); // distinct creation times
  }
  ids.push(
    (
      await p.api.post('/transfer-out', {
        source: { accountId: b.accounts.USD },
        destination: { accountId: destB },
        amount: 500,
      })
    ).body.id,
  );
  await advance(p, 10);
});

it('lists newest first with cursor pagination and totalCount', async () => {
  const first = await p.api.get('/transactions', { query: { limit: 2 } });
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ hasMore: true, totalCount: 4 });
  const second = await p.api.get('/transactions', { query: { limit: 2, cursor: first.body.nextCursor } });
  expect(second.body.hasMore).toBe(false);
  const all = [...first.body.data, ...second.body.data].map((t: { id: string }) => t.id);
  expect(all).toEqual([...ids].reverse());
  const asc = await p.api.get('/transactions', { query: { sortOrder: 'asc', limit: 3 } });
  expect(asc.body.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 3));
  const ascNext = await p.api.get('/transactions', {
    query: { sortOrder: 'asc', limit: 3, cursor: asc.body.nextCursor },
  });
  expect(ascNext.body.data.map((t: { id: string }) => t.id)).toEqual([ids[3]]);
});

it('refuses a query parameter the list does not define, so a misspelt filter is not an unfiltered list', async () => {
  const typo = await p.api.get('/transactions', { query: { customerID: a.customerId } });
  expectError(typo, 400, 'INVALID_INPUT');
  expect(typo.body.details.errors).toEqual([
    { field: 'customerID', message: 'is not a query parameter of this operation' },
  ]);
  expect((await p.api.get('/transactions', { query: { customerId: a.customerId, limit: 1 } })).status).toBe(200);
  // An operation that takes no query parameters leaves the URL's query alone.
  expect((await p.api.get(`/transactions/${ids[0]}`, { query: { v: '1' } })).status).toBe(200);
});

it('filters by customer, platform customer id, status, type, account and dates', async () => {
  expect((await p.api.get('/transactions', { query: { customerId: a.customerId } })).body.totalCount).toBe(3);
  expect((await p.api.get('/transactions', { query: { platformCustomerId: 'ben' } })).body.totalCount).toBe(1);
  expect((await p.api.get('/transactions', { query: { status: 'COMPLETED' } })).body.totalCount).toBe(4);
  expect((await p.api.get('/transactions', { query: { status: 'FAILED' } })).body.totalCount).toBe(0);
  expect((await p.api.get('/transactions', { query: { type: 'INCOMING' } })).body.totalCount).toBe(0);
  expect((await p.api.get('/transactions', { query: { accountIdentifier: b.accounts.USD } })).body.totalCount).toBe(1);
  expect(
    (await p.api.get('/transactions', { query: { senderAccountIdentifier: a.accounts.USD } })).body.totalCount,
  ).toBe(3);
  const one = (await p.api.get(`/transactions/${ids[0]}`)).body;
  expect(
    (
      await p.api.get('/transactions', { query: { reference: one.reconciliationInstructions.reference } })
    ).body.data.map((t: { id: string }) => t.id),
  ).toEqual([ids[0]]);
  expect((await p.api.get('/transactions', { query: { startDate: '2999-01-01T00:00:00Z' } })).body.totalCount).toBe(0);
  expectError(await p.api.get('/transactions', { query: { status: 'DONE' } }), 400, 'INVALID_INPUT');
  expectError(await p.api.get('/transactions', { query: { sortOrder: 'sideways' } }), 400, 'INVALID_INPUT');
  // Times the database cannot store are input errors, not 500s: year 0000, or a forged cursor far out.
  for (const query of [
    { startDate: '0000-01-01T00:00:00Z' },
    { endDate: '0001-01-01T00:00:00+14:00' },
    { cursor: Buffer.from(JSON.stringify([new Date(-8.64e15).toISOString(), 'x'])).toString('base64url') },
  ]) {
    expectError(await p.api.get('/transactions', { query }), 400, 'INVALID_INPUT');
  }
  // A wrong type is named as such, not as missing.
  const wrongType = await p.api.post(`/transactions/${ids[0]}/reject`, { reason: 5 });
  expect(wrongType.status).toBe(400);
  expect(wrongType.body.details.errors[0]).toMatchObject({ field: 'reason', message: 'must be a string' });
});

it("filters the platform's own transactions by the platform's id and PLATFORM, as they are shown", async () => {
  const q = await newPlatform();
  const accounts = await q.api.get('/platform/internal-accounts');
  const usd = accounts.body.data.find(
    (x: { balance: { currency: { code: string } } }) => x.balance.currency.code === 'USD',
  ).id;
  await fund(q, usd, 10_000);
  const dest = await externalAccount(q, null, 'USD', '301');
  const t = await q.api.post('/transfer-out', {
    source: { accountId: usd },
    destination: { accountId: dest },
    amount: 100,
  });
  expect(t.status, t.text).toBe(201);
  expect(t.body).toMatchObject({ customerId: q.platformId, platformCustomerId: 'PLATFORM' });
  for (const query of [{ customerId: q.platformId }, { platformCustomerId: 'PLATFORM' }]) {
    expect((await q.api.get('/transactions', { query })).body.data.map((x: { id: string }) => x.id)).toEqual([
      t.body.id,
    ]);
  }
});

it('gets one transaction; unknown and foreign ids are 404', async () => {
  expect((await p.api.get(`/transactions/${ids[3]}`)).body).toMatchObject({
    id: ids[3],
    customerId: b.customerId,
    platformCustomerId: 'ben',
  });
  expectError(
    await p.api.get('/transactions/Transaction:00000000-0000-0000-0000-000000000000'),
    404,
    'TRANSACTION_NOT_FOUND',
  );
  const other = await newPlatform();
  expectError(await other.api.get(`/transactions/${ids[0]}`), 404, 'TRANSACTION_NOT_FOUND');
});

it('records (and updates) receipt delivery confirmation', async () => {
  const now = await p.api.post(`/transactions/${ids[0]}/confirm`);
  expect(now.status, now.text).toBe(200);
  expect(now.body.receiptDeliveryConfirmedAt).toBeDefined();
  const at = await p.api.post(`/transactions/${ids[0]}/confirm`, {
    receiptDeliveryConfirmedAt: '2026-01-02T03:04:05Z',
  });
  expect(at.body.receiptDeliveryConfirmedAt).toBe('2026-01-02T03:04:05.000Z');
  expectError(
    await p.api.post(`/transactions/${ids[0]}/confirm`, { receiptDeliveryConfirmedAt: 'yesterday' }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.post(`/transactions/${ids[0]}/confirm`, { receiptDeliveryConfirmedAt: '0000-01-01T00:00:00Z' }),
    400,
    'INVALID_INPUT',
  );
  // A receipt cannot have been delivered in the future (a few minutes of clock skew pass).
  const serverNow = Date.parse(now.body.receiptDeliveryConfirmedAt);
  const ahead = (ms: number) =>
    p.api.post(`/transactions/${ids[0]}/confirm`, {
      receiptDeliveryConfirmedAt: new Date(serverNow + ms).toISOString(),
    });
  const future = await ahead(3600_000);
  expectError(future, 400, 'INVALID_INPUT');
  expect(future.body.details.errors[0].field).toBe('receiptDeliveryConfirmedAt');
  expect((await p.api.get(`/transactions/${ids[0]}`)).body.receiptDeliveryConfirmedAt).toBe('2026-01-02T03:04:05.000Z'); // unchanged
  expect((await ahead(60_000)).status).toBe(200);
});

it('refuses approve/reject of a transaction not waiting for platform approval', async () => {
  expectError(await p.api.post(`/transactions/${ids[0]}/approve`), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
  expectError(
    await p.api.post(`/transactions/${ids[0]}/reject`, { reason: 'NOPE' }),
    409,
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
  );
  expectError(
    await p.api.post('/transactions/Transaction:00000000-0000-0000-0000-000000000000/approve'),
    404,
    'TRANSACTION_NOT_FOUND',
  );
});
