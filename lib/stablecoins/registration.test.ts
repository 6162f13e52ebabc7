import { expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance } from '@/tests/support/money';
import { keyed, linkAccount, registerCoin, TOKEN_ID } from './testing';

// Stablecoin registration, through the API. Sandbox magic values: a link whose apiClientSecret
// ends 003 / 004 is reported revoked / invalid at its first use; apiClientId ending 005 reaches two
// provider accounts. A token identifier ending 001 is under review (provisioned 60 s later), 002
// rejected.
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
