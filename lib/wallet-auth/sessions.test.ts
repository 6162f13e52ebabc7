import { beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, newWallet, otpLogin, signatureHeaders, signed } from './testing/flows';
import { clientKeyFromSecret, newClientKey, openSessionKeyBundle } from './testing/client';

// Sessions: list, revoke (self-logout included), refresh with a client-held or a legacy key.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

it('revokes a session with its own signature (logout); the revoked key signs nothing more', async () => {
  const w = await newWallet(p);
  const a = await otpLogin(p.api, w.emailOtpId);
  await advance(p, 31);
  const b = await otpLogin(p.api, w.emailOtpId);
  const listed = await p.api.get('/auth/sessions', { query: { accountId: w.accountId } });
  expect(listed.body.data.map((s: { id: string }) => s.id).sort()).toEqual([a.session.id, b.session.id].sort());
  expect(
    listed.body.data.every((s: { encryptedSessionSigningKey?: string }) => s.encryptedSessionSigningKey === undefined),
  ).toBe(true);

  const { challenge, res } = await signed(p.api, 'DELETE', `/auth/sessions/${a.session.id}`, undefined, a.key);
  expect(challenge.body.type).toBe('EMAIL_OTP');
  expect(res.status, res.text).toBe(204);
  expect(
    (await p.api.get('/auth/sessions', { query: { accountId: w.accountId } })).body.data.map(
      (s: { id: string }) => s.id,
    ),
  ).toEqual([b.session.id]);
  expectError(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, a.key)).res,
    401,
    'WALLET_SIGNATURE_INVALID',
  );
  // Revoked, expired or never issued: 404 on the first call.
  expectError(await p.api.delete(`/auth/sessions/${a.session.id}`), 404, 'REFERENCE_NOT_FOUND');
  expectError(
    await p.api.delete('/auth/sessions/Session:00000000-0000-4000-8000-000000000000'),
    404,
    'REFERENCE_NOT_FOUND',
  );
  // Another session of the account may revoke b.
  const c = await p.api.delete(`/auth/sessions/${b.session.id}`);
  const d = await p.api.delete(`/auth/sessions/${b.session.id}`, {
    headers: signatureHeaders(c.body.payloadToSign, b.key, c.body.requestId),
  });
  expect(d.status).toBe(204);
});

it('refreshes: signed by the session itself, a compressed key gets a client-held session, an uncompressed one the sealed key', async () => {
  const w = await newWallet(p);
  const a = await otpLogin(p.api, w.emailOtpId);
  const next = newClientKey();
  const { challenge, res } = await signed(
    p.api,
    'POST',
    `/auth/sessions/${a.session.id}/refresh`,
    { clientPublicKey: next.publicKey },
    a.key,
  );
  expect(JSON.parse(challenge.body.payloadToSign)).toMatchObject({
    type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
    parameters: { targetPublicKey: next.publicKey },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({ accountId: w.accountId, type: 'EMAIL_OTP', nickname: w.email });
  expect(res.body.id).not.toBe(a.session.id);
  expect(res.body.encryptedSessionSigningKey).toBeUndefined();
  expect(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, next)).res.status,
  ).toBe(200);

  const legacy = newClientKey();
  const l = await signed(
    p.api,
    'POST',
    `/auth/sessions/${res.body.id}/refresh`,
    { clientPublicKey: legacy.publicKeyUncompressed },
    next,
  );
  expect(l.res.status, l.res.text).toBe(201);
  const sessionKey = clientKeyFromSecret(await openSessionKeyBundle(l.res.body.encryptedSessionSigningKey, legacy));
  expect(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: false }, sessionKey)).res
      .status,
  ).toBe(200);
});

it('refuses a refresh signed by another session, with another key in the retry body, or of a session no longer active', async () => {
  const p2 = await newPlatform();
  const w = await newWallet(p2);
  const a = await otpLogin(p2.api, w.emailOtpId);
  await advance(p2, 31);
  const b = await otpLogin(p2.api, w.emailOtpId);
  const body = { clientPublicKey: newClientKey().publicKey };
  const ch = await p2.api.post(`/auth/sessions/${a.session.id}/refresh`, body);
  const byOther = await p2.api.post(`/auth/sessions/${a.session.id}/refresh`, body, {
    headers: signatureHeaders(ch.body.payloadToSign, b.key, ch.body.requestId),
  });
  expectError(byOther, 401, 'WALLET_SIGNATURE_INVALID');
  expect(byOther.body.details.reason).toBe('Must be signed by the session being refreshed');
  const otherKey = await p2.api.post(
    `/auth/sessions/${a.session.id}/refresh`,
    { clientPublicKey: newClientKey().publicKey },
    { headers: signatureHeaders(ch.body.payloadToSign, a.key, ch.body.requestId) },
  );
  expectError(otherKey, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
  expectError(
    await p2.api.post(`/auth/sessions/${a.session.id}/refresh`, { clientPublicKey: '05' + '00'.repeat(32) }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p2.api.post(`/auth/sessions/${a.session.id}/refresh`, { clientPublicKey: '02' + 'ff'.repeat(32) }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p2.api.post('/auth/sessions/Session:00000000-0000-4000-8000-000000000000/refresh', body),
    404,
    'REFERENCE_NOT_FOUND',
  );

  await advance(p2, 15 * 60 + 1);
  const late = await p2.api.post(`/auth/sessions/${a.session.id}/refresh`, body, {
    headers: signatureHeaders(ch.body.payloadToSign, a.key, ch.body.requestId),
  });
  expectError(late, 401, 'UNAUTHORIZED');
  expect(late.body.details.reason).toBe('Session is no longer active');
  expectError(await p2.api.post(`/auth/sessions/${b.session.id}/refresh`, body), 401, 'UNAUTHORIZED');
  expectError(await p2.api.delete(`/auth/sessions/${b.session.id}`), 404, 'REFERENCE_NOT_FOUND');
});
