import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { db } from '@/lib/core/db';
import { advance } from '@/tests/support/money';
import { keyed, linkAccount, registerCoin, TOKEN_ID } from './testing';

// Provider account links and stablecoin registration, through the API. Sandbox magic values:
// apiClientSecret ending 002 is refused; 003 / 004 link, then are reported revoked / invalid at
// the first use; apiClientId ending 005 reaches two provider accounts. A token identifier ending
// 001 is under review (provisioned 60 s later), 002 rejected.
const link = (p: TestPlatform, body: Record<string, unknown>, headers = keyed()) =>
  p.api.post('/stablecoin-provider-accounts', { provider: 'BRALE', ...body }, headers);

describe('stablecoin provider account links', () => {
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
    expect(row!.sealedCredentials).toMatch(/^v1\./);
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
    process.env.CORRIDOR_MODE = 'production';
    try {
      const res = await link(p, { apiClientId: 'prod_client', apiClientSecret: 'prod-secret' });
      expectError(res, 400, 'STABLECOIN_PROVIDER_ACCOUNT_INVALID');
      expect(res.body.message).toContain('production client');
    } finally {
      process.env.CORRIDOR_MODE = 'sandbox';
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
});

describe('stablecoin registration', () => {
  const register = (p: TestPlatform, body: Record<string, unknown>, headers = keyed()) =>
    p.api.post('/stablecoins', { networkTokenIdentifier: TOKEN_ID, network: 'SPARK', ...body }, headers);

  it('needs a link: 404 without any, SELECTION_REQUIRED with several active', async () => {
    const p = await newPlatform();
    expectError(await register(p, { providerTokenIdentifier: 'ACME' }), 404, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    const a = await linkAccount(p);
    const b = await linkAccount(p);
    const res = await register(p, { providerTokenIdentifier: 'ACME' });
    expectError(res, 400, 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED');
    expect(res.body.details.stablecoinProviderAccountIds.sort()).toEqual([a.id, b.id].sort());
    const ok = await register(p, { providerTokenIdentifier: 'ACME', stablecoinProviderAccountId: b.id });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({
      id: expect.stringMatching(/^Stablecoin:/),
      symbol: 'ACME',
      baseCurrency: 'USD',
      network: 'SPARK',
      decimals: 6,
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'NOT_ENABLED',
      networkTokenIdentifier: TOKEN_ID,
      provider: 'BRALE',
      stablecoinProviderAccountId: b.id,
      providerEnvironment: 'SANDBOX',
      providerTokenIdentifier: 'ACME',
    });
    expect((await p.api.get(`/stablecoins/${ok.body.id}`)).body).toEqual(ok.body);
    expectError(
      await register(p, { providerTokenIdentifier: 'ACME', stablecoinProviderAccountId: b.id }),
      409,
      'CONFLICT',
    );
    expectError(
      await register(p, {
        providerTokenIdentifier: 'OTHER',
        stablecoinProviderAccountId: 'StablecoinProviderAccount:00000000-0000-0000-0000-000000000000',
      }),
      404,
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    );
  });

  it('a revoked link (secret ending 003) moves to REVOKED at first use and is refused after', async () => {
    const p = await newPlatform();
    const l = await linkAccount(p, 'client_rev', 'secret-003');
    expect(l.status).toBe('ACTIVE');
    expectError(await register(p, { providerTokenIdentifier: 'ACME' }), 400, 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED');
    expect((await p.api.get(`/stablecoin-provider-accounts/${l.id}`)).body.status).toBe('REVOKED');
    expectError(await register(p, { providerTokenIdentifier: 'ACME' }), 400, 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED');
    const revoked = await p.api.get('/stablecoin-provider-accounts', { query: { status: 'REVOKED' } });
    expect(revoked.body.data.map((x: { id: string }) => x.id)).toEqual([l.id]);
    // Fresh credentials for the same provider account make the link ACTIVE again.
    const relinked = await p.api.post(
      '/stablecoin-provider-accounts',
      {
        provider: 'BRALE',
        apiClientId: 'client_rev',
        apiClientSecret: 'fresh-secret',
        providerAccountId: l.providerAccountId,
      },
      keyed(),
    );
    expect(relinked.status, relinked.text).toBe(201);
    expect(relinked.body).toMatchObject({ id: l.id, status: 'ACTIVE' });
    expect((await register(p, { providerTokenIdentifier: 'ACME' })).status).toBe(201);
  });

  it('an invalid link (secret ending 004) moves to INVALID at first use', async () => {
    const p = await newPlatform();
    const l = await linkAccount(p, 'client_inv', 'secret-004');
    expectError(
      await register(p, { providerTokenIdentifier: 'ACME', stablecoinProviderAccountId: l.id }),
      400,
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
    );
    expect((await p.api.get(`/stablecoin-provider-accounts/${l.id}`)).body.status).toBe('INVALID');
    expectError(await register(p, { providerTokenIdentifier: 'ACME' }), 400, 'STABLECOIN_PROVIDER_ACCOUNT_INVALID');
  });

  it('token 001 is under review and provisioned 60 s later; 002 is rejected; filters and pages', async () => {
    const p = await newPlatform();
    await linkAccount(p);
    const review = await registerCoin(p, 'REVIEW001');
    expect(review.issuanceStatus).toBe('PENDING_REVIEW');
    const rejected = await registerCoin(p, 'REJECT002');
    expect(rejected.issuanceStatus).toBe('REJECTED');
    await registerCoin(p, 'PLAIN');
    const pending = await p.api.get('/stablecoins', { query: { issuanceStatus: 'PENDING_REVIEW' } });
    expect(pending.body.data.map((x: { id: string }) => x.id)).toEqual([review.id]);
    await advance(p, 61);
    expect((await p.api.get(`/stablecoins/${review.id}`)).body.issuanceStatus).toBe('PROVISIONED');
    const page = await p.api.get('/stablecoins', {
      query: { limit: 2, provider: 'BRALE', gridOperationsStatus: 'NOT_ENABLED' },
    });
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 3 });
    const rest = await p.api.get('/stablecoins', { query: { limit: 2, cursor: page.body.nextCursor } });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.hasMore).toBe(false);
    expectError(await p.api.get('/stablecoins', { query: { issuanceStatus: 'X' } }), 400, 'INVALID_INPUT');
    expectError(
      await p.api.get('/stablecoins/Stablecoin:00000000-0000-0000-0000-000000000000'),
      404,
      'REFERENCE_NOT_FOUND',
    );
    expectError(
      await register(p, { providerTokenIdentifier: 'X', networkTokenIdentifier: 'not-a-token' }),
      400,
      'INVALID_INPUT',
    );
    expectError(await register(p, { providerTokenIdentifier: 'X', network: 'SOLANA' }), 400, 'INVALID_INPUT');
    expectError(
      await p.api.post('/stablecoins', {
        providerTokenIdentifier: 'Y',
        networkTokenIdentifier: TOKEN_ID,
        network: 'SPARK',
      }),
      400,
      'INVALID_INPUT',
    );
  });

  it('registers a token once under concurrent requests', async () => {
    const p = await newPlatform();
    await linkAccount(p);
    const results = await Promise.all([1, 2, 3].map(() => register(p, { providerTokenIdentifier: 'RACE' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT');
  });
});
