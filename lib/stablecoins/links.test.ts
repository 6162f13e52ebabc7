import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { db } from '@/lib/core/db';
import { keyed } from './testing';
import { switchMode } from '@/tests/support/mode';

// Provider account links, through the API. Sandbox magic values: apiClientSecret ending 002 is
// refused; 003 / 004 link, then are reported revoked / invalid at the first use (registration.test.ts);
// apiClientId ending 005 reaches two provider accounts.
const link = (p: TestPlatform, body: Record<string, unknown>, headers = keyed()) =>
  p.api.post('/stablecoin-provider-accounts', { provider: 'BRALE', ...body }, headers);

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

it('links verified credentials, stores them sealed and never returns them', async () => {
  const res = await link(p, { apiClientId: 'client_abc', apiClientSecret: 'very-secret-value' });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    id: expect.stringMatching(/^StablecoinProviderAccount:/),
    provider: 'BRALE',
    providerEnvironment: 'SANDBOX',
    status: 'ACTIVE',
    providerAccountId: expect.stringMatching(/^[0-9A-Za-z]{27}$/),
  });
  expect(res.text).not.toContain('very-secret-value');
  expect(res.text).not.toContain('client_abc');
  const row = await db().stablecoinProviderAccount.findUnique({ where: { id: res.body.id } });
  expect(row!.sealedCredentials).toMatch(/^v2\.[0-9a-f]{16}\./);
  expect(row!.sealedCredentials).not.toContain('very-secret-value');
  const got = await p.api.get(`/stablecoin-provider-accounts/${res.body.id}`);
  expect(got.status).toBe(200);
  expect(got.body).toEqual(res.body);
  expect(got.text).not.toContain('very-secret-value');
});

it('names the provider account when the credentials reach several', async () => {
  expectError(await link(p, { apiClientId: 'multi_005', apiClientSecret: 'x' }), 400, 'INVALID_INPUT');
  const named = await link(p, { apiClientId: 'multi_005', apiClientSecret: 'x', providerAccountId: 'acct-chosen-1' });
  expect(named.status, named.text).toBe(201);
  expect(named.body.providerAccountId).toBe('acct-chosen-1');
});

it('refuses credentials the provider rejects (secret ending 002) and stores nothing', async () => {
  const before = await db().stablecoinProviderAccount.count({ where: { platformId: p.platformId } });
  expectError(
    await link(p, { apiClientId: 'client_x', apiClientSecret: 'bad-002' }),
    400,
    'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
  );
  expect(await db().stablecoinProviderAccount.count({ where: { platformId: p.platformId } })).toBe(before);
});

it('refuses malformed input and a missing Idempotency-Key', async () => {
  expectError(await link(p, { apiClientId: 'has space', apiClientSecret: 'x' }), 400, 'INVALID_INPUT');
  expectError(await link(p, { apiClientId: 'a' }), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post(
      '/stablecoin-provider-accounts',
      { provider: 'OTHER', apiClientId: 'a', apiClientSecret: 'b' },
      keyed(),
    ),
    400,
    'INVALID_INPUT',
  );
  expectError(await link(p, { apiClientId: 'a1', apiClientSecret: 'b' }, { headers: {} }), 400, 'INVALID_INPUT');
});

it('answers 409 for an account already linked and replays a repeated key', async () => {
  const headers = keyed();
  const first = await link(p, { apiClientId: 'dup_client', apiClientSecret: 's' }, headers);
  expect(first.status).toBe(201);
  const replay = await link(p, { apiClientId: 'dup_client', apiClientSecret: 's' }, headers);
  expect(replay.status).toBe(201);
  expect(replay.body).toEqual(first.body);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expectError(await link(p, { apiClientId: 'dup_client', apiClientSecret: 's' }), 409, 'CONFLICT');
});

it('links one account once under concurrent requests', async () => {
  const results = await Promise.all(
    [1, 2, 3, 4].map(() => link(p, { apiClientId: 'race_client', apiClientSecret: 's' })),
  );
  expect(results.filter((r) => r.status === 201)).toHaveLength(1);
  for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT');
});

it('outside sandbox, with no provider client configured, nothing links', async () => {
  switchMode('production');
  try {
    const res = await link(p, { apiClientId: 'prod_client', apiClientSecret: 'prod-secret' });
    expectError(res, 400, 'STABLECOIN_PROVIDER_ACCOUNT_INVALID');
    expect(res.body.message).toContain('production client');
  } finally {
    switchMode('sandbox');
  }
});

it('lists links with the filters and cursor pagination; 404 for an unknown id', async () => {
  const all = await p.api.get('/stablecoin-provider-accounts', { query: { limit: 2 } });
  expect(all.status).toBe(200);
  expect(all.body.data).toHaveLength(2);
  expect(all.body.hasMore).toBe(true);
  const next = await p.api.get('/stablecoin-provider-accounts', { query: { limit: 2, cursor: all.body.nextCursor } });
  expect(next.body.data.map((x: { id: string }) => x.id)).not.toContain(all.body.data[0].id);
  const active = await p.api.get('/stablecoin-provider-accounts', { query: { status: 'ACTIVE', provider: 'BRALE' } });
  expect(active.body.totalCount).toBe(all.body.totalCount);
  const revoked = await p.api.get('/stablecoin-provider-accounts', { query: { status: 'REVOKED' } });
  expect(revoked.body).toMatchObject({ data: [], hasMore: false, totalCount: 0 });
  expectError(await p.api.get('/stablecoin-provider-accounts', { query: { status: 'NOPE' } }), 400, 'INVALID_INPUT');
  expectError(
    await p.api.get('/stablecoin-provider-accounts/StablecoinProviderAccount:00000000-0000-0000-0000-000000000000'),
    404,
    'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
  );
  const other = await newPlatform();
  expectError(
    await other.api.get(`/stablecoin-provider-accounts/${all.body.data[0].id}`),
    404,
    'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
  );
});
