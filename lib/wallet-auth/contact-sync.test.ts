import { afterEach, beforeAll, expect, it } from 'vitest';
import { outboxOf } from '@/lib/notify/sender';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, newWallet, otpLogin, signatureHeaders, signed } from './testing/flows';
import { googleClaims, newClientKey, oidcToken, sha256Hex } from './testing/client';
import { switchMode } from '@/tests/support/mode';

// PATCH /customers/{id} changing a contact tied to the wallet's OTP credentials: a signed retry
// that changes the customer and the credentials together.
const nowS = () => Math.floor(Date.now() / 1000);

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});
afterEach(() => {
  switchMode('sandbox');
});

it('first call 202 binding the fields; the signed retry updates customer email and EMAIL_OTP credential together', async () => {
  const w = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const path = `/customers/${w.customerId}`;
  const next = `renamed-${Date.now()}@example.com`;
  const ch = await p.api.patch(path, { customerType: 'INDIVIDUAL', email: next, fullName: 'Renamed Holder' });
  expect(ch.status, ch.text).toBe(202);
  expect(JSON.parse(ch.body.payloadToSign)).toMatchObject({
    type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
    parameters: { userEmail: next, userId: w.customerId },
  });
  // Nothing changed yet.
  expect((await p.api.get(path)).body).toMatchObject({ email: w.email, fullName: 'Wallet Holder' });

  expectError(
    await p.api.patch(
      path,
      { customerType: 'INDIVIDUAL', email: 'other@example.com', fullName: 'Renamed Holder' },
      { headers: signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId) },
    ),
    401,
    'WALLET_SIGNATURE_BODY_MISMATCH',
  );
  expectError(
    await p.api.patch(
      path,
      { customerType: 'INDIVIDUAL', email: next, fullName: 'Renamed Holder' },
      { headers: { 'Request-Id': ch.body.requestId } },
    ),
    401,
    'WALLET_SIGNATURE_MISSING',
  );
  const stranger = await p.api.patch(
    path,
    { customerType: 'INDIVIDUAL', email: next, fullName: 'Renamed Holder' },
    { headers: signatureHeaders(ch.body.payloadToSign, newClientKey(), ch.body.requestId) },
  );
  expectError(stranger, 401, 'WALLET_SIGNATURE_INVALID');

  const res = await p.api.patch(
    path,
    { customerType: 'INDIVIDUAL', email: next, fullName: 'Renamed Holder' },
    { headers: signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId) },
  );
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ id: w.customerId, email: next, fullName: 'Renamed Holder' });
  const creds = await p.api.get('/auth/credentials', { query: { accountId: w.accountId } });
  expect(creds.body.data).toEqual([expect.objectContaining({ id: w.emailOtpId, type: 'EMAIL_OTP', nickname: next })]);
  // The next code goes to the new address.
  await advance(p, 31);
  switchMode('production');
  expect((await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`)).status).toBe(200);
  expect(outboxOf(p.platformId, next)).toHaveLength(1);
  expect(outboxOf(p.platformId, w.email)).toHaveLength(0);
  switchMode('sandbox');
  // Changing other fields, or the email back to the same address in another case, needs no signature.
  expect(
    (await p.api.patch(path, { customerType: 'INDIVIDUAL', email: next.toUpperCase(), birthDate: '1990-02-02' }))
      .status,
  ).toBe(200);
});

it("EMAIL_OTP_EMAIL_ALREADY_EXISTS when the address is another EMAIL_OTP credential's", async () => {
  const a = await newWallet(p);
  const b = await newWallet(p);
  const res = await p.api.patch(`/customers/${a.customerId}`, {
    customerType: 'INDIVIDUAL',
    email: b.email.toUpperCase(),
  });
  expectError(res, 409, 'EMAIL_OTP_EMAIL_ALREADY_EXISTS');
  expect((await p.api.get(`/customers/${a.customerId}`)).body.email).toBe(a.email);
});

it('EMAIL_OTP_CREDENTIAL_SET_CHANGED when the tied credentials changed after the challenge', async () => {
  const w = await newWallet(p);
  const { key: emailKey } = await otpLogin(p.api, w.emailOtpId);
  const added = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { type: 'OAUTH', accountId: w.accountId, oidcToken: await oidcToken(googleClaims(nowS())) },
    emailKey,
  );
  const oauthKey = newClientKey();
  const login = await p.api.post(`/auth/credentials/${added.res.body.id}/verify`, {
    type: 'OAUTH',
    oidcToken: await oidcToken(googleClaims(nowS(), { nonce: sha256Hex(oauthKey.publicKey) })),
    clientPublicKey: oauthKey.publicKey,
  });
  expect(login.status).toBe(200);

  const body = { customerType: 'INDIVIDUAL', email: `moved-${Date.now()}@example.com` };
  const ch = await p.api.patch(`/customers/${w.customerId}`, body);
  expect(ch.status).toBe(202);
  // Meanwhile the EMAIL_OTP credential is replaced by a new one.
  expect((await signed(p.api, 'DELETE', `/auth/credentials/${w.emailOtpId}`, undefined, oauthKey)).res.status).toBe(
    204,
  );
  expect(
    (await signed(p.api, 'POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: w.accountId }, oauthKey)).res
      .status,
  ).toBe(201);
  const res = await p.api.patch(`/customers/${w.customerId}`, body, {
    headers: signatureHeaders(ch.body.payloadToSign, oauthKey, ch.body.requestId),
  });
  expectError(res, 409, 'EMAIL_OTP_CREDENTIAL_SET_CHANGED');
  expect((await p.api.get(`/customers/${w.customerId}`)).body.email).toBe(w.email);
});

it('syncs a phone number tied to SMS_OTP the same way, and refuses changing both contacts at once', async () => {
  const w = await newWallet(p, { phoneNumber: '+14155550111' });
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const sms = await signed(p.api, 'POST', '/auth/credentials', { type: 'SMS_OTP', accountId: w.accountId }, key);
  expect(sms.res.status).toBe(201);
  expectError(
    await p.api.patch(`/customers/${w.customerId}`, {
      customerType: 'INDIVIDUAL',
      email: 'both@example.com',
      phoneNumber: '+14155550112',
    }),
    400,
    'INVALID_INPUT',
  );
  const { challenge, res } = await signed(
    p.api,
    'PATCH',
    `/customers/${w.customerId}`,
    { customerType: 'INDIVIDUAL', phoneNumber: '+14155550112' },
    key,
  );
  expect(JSON.parse(challenge.body.payloadToSign)).toMatchObject({
    type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
    parameters: { userPhoneNumber: '+14155550112' },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.phoneNumber).toBe('+14155550112');
  const creds = (await p.api.get('/auth/credentials', { query: { accountId: w.accountId } })).body.data;
  expect(creds.find((c: { type: string }) => c.type === 'SMS_OTP').nickname).toBe('+14155550112');
});
