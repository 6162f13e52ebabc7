import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { withStrictRequests } from '@/tests/support/request-mode';
import { advance, newWallet, otpLogin, signatureHeaders, signed, addOauth, oauthLogin, nowS } from './testing/flows';
import { googleClaims, oidcToken } from './testing/client';

// The rules for credentials (specification, "Rules for credentials") over HTTP.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

it('rule 2: the only credential cannot be revoked (400); two crossed revocations cannot leave none', async () => {
  const w = await newWallet(p);
  expectError(await p.api.delete(`/auth/credentials/${w.emailOtpId}`), 400, 'INVALID_INPUT');
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const oauthId = await addOauth(p, w.accountId, key);
  const { key: oauthKey } = await oauthLogin(p, oauthId);
  // Each credential revoked with the other's session, at the same time: one wins.
  const e = await p.api.delete(`/auth/credentials/${w.emailOtpId}`);
  const o = await p.api.delete(`/auth/credentials/${oauthId}`);
  const [re, ro] = await Promise.all([
    p.api.delete(`/auth/credentials/${w.emailOtpId}`, {
      headers: signatureHeaders(e.body.payloadToSign, oauthKey, e.body.requestId),
    }),
    p.api.delete(`/auth/credentials/${oauthId}`, {
      headers: signatureHeaders(o.body.payloadToSign, key, o.body.requestId),
    }),
  ]);
  expect([re.status, ro.status].filter((s) => s === 204)).toHaveLength(1);
  const loser = re.status === 204 ? ro : re;
  expect([400, 401]).toContain(loser.status);
  const left = await p.api.get('/auth/credentials', { query: { accountId: w.accountId } });
  expect(left.body.data).toHaveLength(1);
  expectError(await p.api.delete(`/auth/credentials/${left.body.data[0].id}`), 400, 'INVALID_INPUT');
});

it("rule 1: revoking needs a session of another credential; revocation ends the credential's sessions", async () => {
  const w = await newWallet(p);
  const { key: emailKey, session: emailSession } = await otpLogin(p.api, w.emailOtpId);
  const oauthId = await addOauth(p, w.accountId, emailKey);
  const { key: oauthKey } = await oauthLogin(p, oauthId);

  const challenge = await p.api.delete(`/auth/credentials/${w.emailOtpId}`);
  expect(challenge.status).toBe(202);
  expect(challenge.body.type).toBe('EMAIL_OTP');
  // Signed with a session of the credential being revoked: refused.
  const self = await p.api.delete(`/auth/credentials/${w.emailOtpId}`, {
    headers: signatureHeaders(challenge.body.payloadToSign, emailKey, challenge.body.requestId),
  });
  expectError(self, 401, 'WALLET_SIGNATURE_INVALID');
  expect(self.body.details.reason).toMatch(/different credential/);
  // Signed with the OAUTH session: revoked.
  const ok = await p.api.delete(`/auth/credentials/${w.emailOtpId}`, {
    headers: signatureHeaders(challenge.body.payloadToSign, oauthKey, challenge.body.requestId),
  });
  expect(ok.status, ok.text).toBe(204);

  const creds = await p.api.get('/auth/credentials', { query: { accountId: w.accountId } });
  expect(creds.body.data.map((c: { id: string }) => c.id)).toEqual([oauthId]);
  const sessions = await p.api.get('/auth/sessions', { query: { accountId: w.accountId } });
  expect(sessions.body.data.map((s: { id: string }) => s.id)).not.toContain(emailSession.id);
  expect(sessions.body.data.every((s: { type: string }) => s.type === 'OAUTH')).toBe(true);
  // A session of the revoked credential signs nothing any more.
  expectError(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, emailKey)).res,
    401,
    'WALLET_SIGNATURE_INVALID',
  );
  expectError(await p.api.delete(`/auth/credentials/${w.emailOtpId}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`), 404, 'REFERENCE_NOT_FOUND');

  // EMAIL_OTP can be added back once removed; its registration sends the first code.
  const back = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { type: 'EMAIL_OTP', accountId: w.accountId },
    oauthKey,
  );
  expect(back.challenge.body.type).toBe('EMAIL_OTP');
  expect(back.res.status, back.res.text).toBe(201);
  expect(back.res.body).toMatchObject({ type: 'EMAIL_OTP', nickname: w.email });
  await otpLogin(p.api, back.res.body.id, { targetBundle: back.res.body.otpEncryptionTargetBundle });
});

it("refuses another account's session, and a session that expired", async () => {
  // Its own platform: the test moves the platform clock.
  const p = await newPlatform();
  const a = await newWallet(p);
  const b = await newWallet(p);
  const { key: aKey } = await otpLogin(p.api, a.emailOtpId);
  const { key: bKey } = await otpLogin(p.api, b.emailOtpId);
  const foreign = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { type: 'OAUTH', accountId: a.accountId, oidcToken: await oidcToken(googleClaims(nowS())) },
    bKey,
  );
  expectError(foreign.res, 401, 'WALLET_SIGNATURE_INVALID');
  expect(foreign.res.body.details.reason).toBe('The signing key is not an active session of this account');
  // Sessions last 15 minutes on the platform clock.
  await advance(p, 15 * 60 + 1);
  const expired = await signed(p.api, 'PATCH', `/internal-accounts/${a.accountId}`, { privateEnabled: true }, aKey);
  expectError(expired.res, 401, 'WALLET_SIGNATURE_INVALID');
  expect((await p.api.get('/auth/sessions', { query: { accountId: a.accountId } })).body.data).toEqual([]);
});

it('binds the retry to the exact request: another body, path or method is WALLET_SIGNATURE_BODY_MISMATCH', async () => {
  const w = await newWallet(p);
  const other = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const body = {
    type: 'OAUTH',
    accountId: w.accountId,
    oidcToken: await oidcToken(googleClaims(nowS(), { sub: 'bound' })),
  };
  const ch = await p.api.post('/auth/credentials', body);
  const headers = signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId);
  const swapped = await p.api.post(
    '/auth/credentials',
    { ...body, oidcToken: await oidcToken(googleClaims(nowS(), { sub: 'attacker' })) },
    { headers },
  );
  expectError(swapped, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
  // In strict mode a field the operation does not know is refused before any signature is considered.
  const extra = await withStrictRequests(() => p.api.post('/auth/credentials', { ...body, extra: 1 }, { headers }));
  expectError(extra, 400, 'INVALID_INPUT');
  expect(extra.body.details.errors).toEqual([{ field: 'extra', message: 'is not a field of this operation' }]);
  // Read leniently (the default) it is ignored, but the signature covers the exact body sent.
  expectError(
    await p.api.post('/auth/credentials', { ...body, extra: 1 }, { headers }),
    401,
    'WALLET_SIGNATURE_BODY_MISMATCH',
  );
  expectError(
    await p.api.patch(`/internal-accounts/${w.accountId}`, { privateEnabled: true }, { headers }),
    401,
    'WALLET_SIGNATURE_BODY_MISMATCH',
  );
  expectError(
    await p.api.post('/auth/credentials', { ...body, accountId: other.accountId }, { headers }),
    401,
    'WALLET_SIGNATURE_BODY_MISMATCH',
  );
  // The same content re-serialized (other key order) is the same request.
  const reordered = { oidcToken: body.oidcToken, accountId: body.accountId, type: body.type };
  const ok = await p.api.post('/auth/credentials', reordered, { headers });
  expect(ok.status, ok.text).toBe(201);
});

it('lists credentials per account (empty for an unknown one; 400 for a malformed id) and needs VIEW / MANAGE', async () => {
  const w = await newWallet(p);
  expect(
    (
      await p.api.get('/auth/credentials', {
        query: { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' },
      })
    ).body,
  ).toEqual({ data: [] });
  expectError(await p.api.get('/auth/credentials', { query: { accountId: 'nope' } }), 400, 'INVALID_INPUT');
  expectError(await p.api.get('/auth/credentials'), 400, 'INVALID_INPUT');
  expectError(await p.api.get('/auth/sessions', { query: { accountId: 'nope' } }), 400, 'INVALID_INPUT');
  const viewer = await p.withPermissions('VIEW');
  expect((await viewer.get('/auth/credentials', { query: { accountId: w.accountId } })).status).toBe(200);
  expect((await viewer.get('/auth/sessions', { query: { accountId: w.accountId } })).status).toBe(200);
  expectError(await viewer.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: w.accountId }), 403, 'FORBIDDEN');
  expectError(await viewer.post(`/auth/credentials/${w.emailOtpId}/challenge`), 403, 'FORBIDDEN');
  expectError(await viewer.delete(`/auth/credentials/${w.emailOtpId}`), 403, 'FORBIDDEN');
  // Another platform sees none of it.
  const q = await newPlatform();
  expect((await q.api.get('/auth/credentials', { query: { accountId: w.accountId } })).body).toEqual({ data: [] });
  expectError(await q.api.post(`/auth/credentials/${w.emailOtpId}/challenge`), 404, 'REFERENCE_NOT_FOUND');
});

it('adds credentials to embedded wallets only: unknown account 404, another account type 400', async () => {
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'No Wallet',
    currencies: ['USD'],
  });
  const fiat = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body.data[0];
  expectError(await p.api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: fiat.id }), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post('/auth/credentials', {
      type: 'EMAIL_OTP',
      accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000',
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.post('/auth/credentials', { type: 'TOTP', accountId: fiat.id }), 400, 'INVALID_INPUT');
});
