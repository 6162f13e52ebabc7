import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { registerFundingSourceLookup } from './delegated-keys';
import { newWallet, otpLogin, signatureHeaders, signed } from './testing/flows';
import { newClientKey, type ClientKey } from './testing/client';

// Delegated keys: the three-leg signed retry, one ACTIVE key per card funding source, revocation.
// Which card is funded by which wallet is the cards domain's; here a lookup stands in for it.
const fundingSources = new Map<string, string>();

let p: TestPlatform;
let w: Awaited<ReturnType<typeof newWallet>>;
let key: ClientKey;
let cardId: string;
beforeAll(async () => {
  registerFundingSourceLookup(async (_platformId, card, accountId) => {
    const source = fundingSources.get(`${card}|${accountId}`);
    return source ? { fundingSourceId: source } : null;
  });
  p = await newPlatform();
  w = await newWallet(p);
  key = (await otpLogin(p.api, w.emailOtpId)).key;
  cardId = `Card:${randomUUID()}`;
  fundingSources.set(`${cardId}|${w.accountId}`, `CardFundingSource:${randomUUID()}`);
});
afterAll(() => registerFundingSourceLookup(async () => null));

const body = () => ({ cardId, internalAccountId: w.accountId, nickname: 'Card payments key' });

it('creates a key in three signed legs: 202, 202 (PENDING), 201 (ACTIVE)', async () => {
  const leg1 = await p.api.post('/auth/delegated-keys', body());
  expect(leg1.status, leg1.text).toBe(202);
  const proposed = JSON.parse(leg1.body.payloadToSign).parameters.apiKeys[0].publicKey as string;
  expect(proposed).toMatch(/^0[23][0-9a-f]{64}$/);
  const leg2 = await p.api.post('/auth/delegated-keys', body(), {
    headers: signatureHeaders(leg1.body.payloadToSign, key, leg1.body.requestId),
  });
  expect(leg2.status, leg2.text).toBe(202);
  expect(leg2.body.requestId).not.toBe(leg1.body.requestId);
  expect(JSON.parse(leg2.body.payloadToSign).type).toBe('ACTIVITY_TYPE_CREATE_POLICIES');
  const pending = await p.api.get('/auth/delegated-keys', { query: { accountId: w.accountId } });
  expect(pending.body.data).toEqual([expect.objectContaining({ status: 'PENDING', publicKey: proposed, cardId })]);
  // The leg-1 request id is spent.
  expectError(
    await p.api.post('/auth/delegated-keys', body(), {
      headers: signatureHeaders(leg1.body.payloadToSign, key, leg1.body.requestId),
    }),
    401,
    'UNAUTHORIZED',
  );
  // The last leg must be signed by the wallet too.
  expectError(
    await p.api.post('/auth/delegated-keys', body(), {
      headers: signatureHeaders(leg2.body.payloadToSign, newClientKey(), leg2.body.requestId),
    }),
    401,
    'WALLET_SIGNATURE_INVALID',
  );
  const leg3 = await p.api.post('/auth/delegated-keys', body(), {
    headers: signatureHeaders(leg2.body.payloadToSign, key, leg2.body.requestId),
  });
  expect(leg3.status, leg3.text).toBe(201);
  expect(leg3.body).toMatchObject({
    id: expect.stringMatching(/^DelegatedKey:/),
    cardId,
    accountId: w.accountId,
    publicKey: proposed,
    nickname: 'Card payments key',
    status: 'ACTIVE',
  });
  expect(leg3.body.fundingSourceId).toBe(fundingSources.get(`${cardId}|${w.accountId}`));
  expect((await p.api.get(`/auth/delegated-keys/${leg3.body.id}`)).body.status).toBe('ACTIVE');
  expect(
    (await p.api.get('/auth/delegated-keys', { query: { fundingSourceId: leg3.body.fundingSourceId } })).body.data.map(
      (k: { status: string }) => k.status,
    ),
  ).toEqual(['ACTIVE']);

  // One ACTIVE key per funding source.
  expectError(await p.api.post('/auth/delegated-keys', body()), 409, 'CONFLICT');
  // Revoke: ACTIVE → REVOKED, key material erased; a second revoke is 400.
  expect((await p.api.delete(`/auth/delegated-keys/${leg3.body.id}`)).status).toBe(204);
  expect((await p.api.get(`/auth/delegated-keys/${leg3.body.id}`)).body.status).toBe('REVOKED');
  const row = await db().delegatedKey.findUnique({ where: { id: leg3.body.id } });
  expect(row?.secretKeySealed).toBeNull();
  expectError(await p.api.delete(`/auth/delegated-keys/${leg3.body.id}`), 400, 'INVALID_INPUT');
  // A new one can be created now.
  const again = await signed(p.api, 'POST', '/auth/delegated-keys', body(), key);
  expect(again.res.status).toBe(202);
  expect(
    (
      await p.api.post('/auth/delegated-keys', body(), {
        headers: signatureHeaders(again.res.body.payloadToSign, key, again.res.body.requestId),
      })
    ).status,
  ).toBe(201);
});

it('refuses unknown cards and ids, lists only with a filter, and needs VIEW / MANAGE', async () => {
  expectError(
    await p.api.post('/auth/delegated-keys', { ...body(), cardId: `Card:${randomUUID()}` }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(
    await p.api.post('/auth/delegated-keys', {
      ...body(),
      internalAccountId: 'InternalAccount:00000000-0000-4000-8000-000000000000',
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.post('/auth/delegated-keys', { ...body(), nickname: '' }), 400, 'INVALID_INPUT');
  expectError(await p.api.get('/auth/delegated-keys'), 400, 'INVALID_INPUT');
  expectError(
    await p.api.get('/auth/delegated-keys/DelegatedKey:00000000-0000-4000-8000-000000000000'),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.delete('/auth/delegated-keys/nope'), 404, 'REFERENCE_NOT_FOUND');
  const viewer = await p.withPermissions('VIEW');
  expect((await viewer.get('/auth/delegated-keys', { query: { accountId: w.accountId } })).status).toBe(200);
  expectError(await viewer.post('/auth/delegated-keys', body()), 403, 'FORBIDDEN');
  // An abandoned PENDING key does not block the next flow.
  const other = await newWallet(p);
  const otherKey = (await otpLogin(p.api, other.emailOtpId)).key;
  const card2 = `Card:${randomUUID()}`;
  fundingSources.set(`${card2}|${other.accountId}`, `CardFundingSource:${randomUUID()}`);
  const b2 = { cardId: card2, internalAccountId: other.accountId, nickname: 'k' };
  const leg1 = await p.api.post('/auth/delegated-keys', b2);
  expect(
    (
      await p.api.post('/auth/delegated-keys', b2, {
        headers: signatureHeaders(leg1.body.payloadToSign, otherKey, leg1.body.requestId),
      })
    ).status,
  ).toBe(202);
  const fresh = await signed(p.api, 'POST', '/auth/delegated-keys', b2, otherKey);
  const done = await p.api.post('/auth/delegated-keys', b2, {
    headers: signatureHeaders(fresh.res.body.payloadToSign, otherKey, fresh.res.body.requestId),
  });
  expect(done.status, done.text).toBe(201);
  const statuses = (await p.api.get('/auth/delegated-keys', { query: { accountId: other.accountId } })).body.data
    .map((k: { status: string }) => k.status)
    .sort();
  expect(statuses).toEqual(['ACTIVE', 'PENDING']);
  // Another wallet's session cannot sign for this wallet's key.
  const card3 = `Card:${randomUUID()}`;
  fundingSources.set(`${card3}|${w.accountId}`, `CardFundingSource:${randomUUID()}`);
  const foreign = await signed(
    p.api,
    'POST',
    '/auth/delegated-keys',
    { cardId: card3, internalAccountId: w.accountId, nickname: 'k' },
    otherKey,
  );
  expectError(foreign.res, 401, 'WALLET_SIGNATURE_INVALID');
});
