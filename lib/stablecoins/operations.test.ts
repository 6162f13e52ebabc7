import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { advance, balanceOf, customerWithAccounts, externalAccount, fund } from '@/tests/support/money';
import { db } from '@/lib/core/db';
import { clockOf } from '@/lib/core/clock';
import { runAs } from '@/lib/core/context';
import * as platforms from '@/lib/platform/repository';
import { freezeClock } from '@/lib/sandbox/clock';
import { getOp, keyed, linkAccount, platformAccount, registerCoin, sparkWallet } from './testing';

// Operation rules shared by mints and burns: amounts, stablecoin and link state, references,
// Idempotency-Key replays, concurrent requests, and the operations list and get.
const NO_COIN = 'Stablecoin:00000000-0000-0000-0000-000000000000';
let p: TestPlatform;
let acme: { id: string };
let spark: string;
let bank: string;
let usd: string;
beforeAll(async () => {
  p = await newPlatform();
  await linkAccount(p);
  acme = await registerCoin(p, 'ACME');
  spark = await sparkWallet(p);
  bank = await externalAccount(p, null, 'USD', '321');
  usd = await platformAccount(p, 'USD');
});
afterEach(async () => {
  await expectLedgerBalanced(p.platformId);
});
const mint = (body: Record<string, unknown>, headers = keyed(), coin = acme.id) =>
  p.api.post(
    `/stablecoins/${coin}/mints`,
    { amount: '10000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark }, ...body },
    headers,
  );

it('amounts must be positive whole cents', async () => {
  expectError(await mint({ amount: '10000001' }), 400, 'INVALID_AMOUNT');
  expectError(await mint({ amount: '0' }), 400, 'INVALID_AMOUNT');
  expectError(await mint({ amount: '99999999999999999999999' }), 400, 'INVALID_AMOUNT');
  expectError(await mint({ amount: 10000000 }), 400, 'INVALID_INPUT');
  expectError(await mint({ amount: '-1' }), 400, 'INVALID_INPUT');
  expectError(await mint({ description: 'x'.repeat(1025) }), 400, 'INVALID_INPUT');
  expect((await mint({ amount: '10000' })).status).toBe(201);
});

it('refuses unknown references, wrong account kinds and a missing Idempotency-Key', async () => {
  expectError(await mint({}, keyed(), NO_COIN), 404, 'REFERENCE_NOT_FOUND');
  expectError(await mint({ destination: { accountId: bank } }), 400, 'INVALID_INPUT');
  expectError(await mint({ destination: { accountId: 'Wallet:1' } }), 400, 'INVALID_INPUT');
  expectError(
    await mint({ destination: { accountId: 'ExternalAccount:00000000-0000-0000-0000-000000000000' } }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await mint({ destination: { accountId: usd } }), 400, 'INVALID_CURRENCY');
  expectError(await mint({ fundingSource: { type: 'ACH_DEBIT', externalAccountId: spark } }), 400, 'INVALID_INPUT');
  expectError(await mint({ fundingSource: { type: 'ACH_DEBIT' } }), 400, 'INVALID_INPUT');
  const eur = await platformAccount(p, 'EUR');
  expectError(
    await mint({ fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: eur } }),
    400,
    'INVALID_CURRENCY',
  );
  const holder = await customerWithAccounts(p, 'Ida Issuer', ['USD']);
  expectError(
    await mint({ fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: holder.accounts.USD } }),
    400,
    'INVALID_INPUT',
  );
  const customerBank = await externalAccount(p, holder.customerId, 'USD', '654');
  expectError(
    await mint({ fundingSource: { type: 'ACH_DEBIT', externalAccountId: customerBank } }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await mint({
      fundingSource: {
        type: 'GRID_INTERNAL_ACCOUNT',
        accountId: 'InternalAccount:00000000-0000-0000-0000-000000000000',
      },
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await mint({}, { headers: {} }), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post(
      `/stablecoins/${acme.id}/burns`,
      {
        amount: '10000000',
        source: { type: 'EXTERNAL_ACCOUNT' },
        destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'WIRE' },
      },
      { headers: {} },
    ),
    400,
    'INVALID_INPUT',
  );
});

it('only a PROVISIONED stablecoin moves (409 otherwise)', async () => {
  const rejected = await registerCoin(p, 'NOPE002');
  const review = await registerCoin(p, 'WAIT001');
  expectError(await mint({}, keyed(), rejected.id), 409, 'CONFLICT');
  expectError(await mint({}, keyed(), review.id), 409, 'CONFLICT');
  await advance(p, 61);
  expect((await mint({}, keyed(), review.id)).status).toBe(201);
});

it('a link the provider no longer accepts refuses operations (REVOKED / INVALID)', async () => {
  const q = await newPlatform();
  const l = await linkAccount(q);
  const coin = await registerCoin(q, 'ACME');
  const wallet = await sparkWallet(q);
  const body = { amount: '10000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } };
  for (const status of ['REVOKED', 'INVALID']) {
    // As recorded after the provider refused the credentials at an earlier use.
    await db().stablecoinProviderAccount.update({ where: { id: l.id }, data: { status } });
    expectError(
      await q.api.post(`/stablecoins/${coin.id}/mints`, body, keyed()),
      400,
      `STABLECOIN_PROVIDER_ACCOUNT_${status}`,
    );
  }
  expect(await db().stablecoinOperation.count({ where: { platformId: q.platformId } })).toBe(0);
});

it('a repeated Idempotency-Key replays the operation; concurrent repeats create one', async () => {
  await fund(p, usd, 5000);
  const before = await balanceOf(p, usd);
  const headers = keyed();
  const body = { fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd } };
  const results = await Promise.all([1, 2, 3].map(() => mint(body, headers)));
  const done = results.filter((r) => r.status === 201);
  expect(done.length).toBeGreaterThanOrEqual(1);
  for (const r of done) expect(r.body.id).toBe(done[0].body.id);
  // A repeat arriving while the first still runs is told to retry (409), never run twice.
  for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT');
  const replay = await mint(body, headers);
  expect(replay.body).toEqual(done[0].body);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(await db().stablecoinOperation.count({ where: { id: done[0].body.id } })).toBe(1);
  expect((await balanceOf(p, usd)).available).toBe(before.available - 1000n);
  expectError(await mint({ ...body, amount: '20000000' }, headers), 400, 'INVALID_INPUT');
});

it('concurrent mints never spend more than the internal account holds', async () => {
  const q = await newPlatform();
  await linkAccount(q);
  const coin = await registerCoin(q, 'ACME');
  const wallet = await sparkWallet(q);
  const own = await platformAccount(q, 'USD');
  await fund(q, own, 2500);
  const body = {
    amount: '10000000',
    fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: own },
    destination: { accountId: wallet },
  };
  const results = await Promise.all([1, 2, 3, 4].map(() => q.api.post(`/stablecoins/${coin.id}/mints`, body, keyed())));
  expect(results.filter((r) => r.status === 201)).toHaveLength(2);
  for (const r of results.filter((x) => x.status !== 201)) expectError(r, 400, 'INVALID_INPUT');
  expect(await balanceOf(q, own)).toEqual({ available: 500n, total: 2500n });
  await advance(q, 10);
  expect(await balanceOf(q, own)).toEqual({ available: 500n, total: 500n });
  await expectLedgerBalanced(q.platformId);
});

it('an early poll waits; a poll that runs twice changes nothing the second time', async () => {
  const { pollJob } = await import('./jobs');
  // Frozen, the clock moves only when advanced: the first poll is early however slow this runs.
  await freezeClock(p.platformId);
  try {
    const res = await mint({});
    // As the worker runs it: as the system, on the platform's clock.
    const poll = async () =>
      runAs(
        { kind: 'system', platformId: p.platformId, ...clockOf((await platforms.findById(p.platformId, db()))!) },
        () => pollJob({ operationId: res.body.id }, { id: 'Job:x', platformId: p.platformId, attempts: 1 }),
      );
    await poll();
    expect(await getOp(p, res.body.id)).toEqual(res.body);
    await advance(p, 15);
    const done = await getOp(p, res.body.id);
    expect(done.status).toBe('COMPLETED');
    await poll();
    expect(await getOp(p, res.body.id)).toEqual(done);
    expect(await db().ledgerTransfer.count({ where: { transactionId: res.body.id } })).toBe(2);
  } finally {
    await freezeClock(p.platformId, false);
  }
});

it('lists operations newest first with the operationType filter and cursor pages; gets one', async () => {
  const q = await newPlatform();
  await linkAccount(q);
  const coin = await registerCoin(q, 'ACME');
  const wallet = await sparkWallet(q);
  const payout = await externalAccount(q, null, 'USD', '321');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const m = await q.api.post(
      `/stablecoins/${coin.id}/mints`,
      { amount: '10000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet } },
      keyed(),
    );
    ids.push(m.body.id);
  }
  const b = await q.api.post(
    `/stablecoins/${coin.id}/burns`,
    {
      amount: '10000000',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: payout, rail: 'WIRE' },
    },
    keyed(),
  );
  ids.push(b.body.id);
  const all = await q.api.get(`/stablecoins/${coin.id}/operations`);
  expect(all.body).toMatchObject({ hasMore: false, totalCount: 4 });
  expect(all.body.data.map((o: { id: string }) => o.id)).toEqual([...ids].reverse());
  const mints = await q.api.get(`/stablecoins/${coin.id}/operations`, { query: { operationType: 'MINT', limit: 2 } });
  expect(mints.body).toMatchObject({ hasMore: true, totalCount: 3 });
  const rest = await q.api.get(`/stablecoins/${coin.id}/operations`, {
    query: { operationType: 'MINT', limit: 2, cursor: mints.body.nextCursor },
  });
  expect(rest.body.data.map((o: { id: string }) => o.id)).toEqual([ids[0]]);
  const burns = await q.api.get(`/stablecoins/${coin.id}/operations`, { query: { operationType: 'BURN' } });
  expect(burns.body.data.map((o: { id: string }) => o.id)).toEqual([b.body.id]);
  expect(await getOp(q, b.body.id)).toEqual(b.body);
  expectError(await q.api.get(`/stablecoins/${NO_COIN}/operations`), 404, 'REFERENCE_NOT_FOUND');
  expectError(
    await q.api.get(`/stablecoins/${coin.id}/operations`, { query: { operationType: 'SWAP' } }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await q.api.get(`/stablecoins/${coin.id}/operations`, { query: { cursor: 'garbage' } }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await q.api.get('/stablecoin-operations/StablecoinOperation:00000000-0000-0000-0000-000000000000'),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.get(`/stablecoin-operations/${b.body.id}`), 404, 'REFERENCE_NOT_FOUND');
  await expectLedgerBalanced(q.platformId);
});

it('needs the right permissions', async () => {
  const viewer = await p.withPermissions('VIEW');
  expect((await viewer.get(`/stablecoins/${acme.id}`)).status).toBe(200);
  expectError(
    await viewer.post(
      `/stablecoins/${acme.id}/mints`,
      { amount: '10000000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark } },
      keyed(),
    ),
    403,
    'FORBIDDEN',
  );
  expectError(
    await viewer.post(
      '/stablecoin-provider-accounts',
      { provider: 'BRALE', apiClientId: 'a', apiClientSecret: 'b' },
      keyed(),
    ),
    403,
    'FORBIDDEN',
  );
  expectError(await p.api.get('/stablecoins', { authorization: null }), 401, 'UNAUTHORIZED');
});
