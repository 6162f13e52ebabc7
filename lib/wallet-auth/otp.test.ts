import { afterEach, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { outboxOf } from '@/lib/notify/sender';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, newWallet, otpLogin, signatureHeaders, signed } from './testing/flows';
import { encryptOtpBundle, newClientKey, sealTo, targetKeyOf } from './testing/client';
import { switchMode } from '@/tests/support/mode';

// EMAIL_OTP and SMS_OTP credentials, end to end as a client does it: real HPKE sealing of
// {"otp_code","public_key"} to the target bundle, the TEK-stamped signed retry, and every way
// the two legs can fail.
const verifyPath = (id: string) => `/auth/credentials/${id}/verify`;

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});
afterEach(() => {
  switchMode('sandbox');
});

it('walks challenge → HPKE-sealed code → 202 → TEK-signed retry → session keyed by the TEK (rule 4, rule 6)', async () => {
  const w = await newWallet(p);
  const creds = await p.api.get('/auth/credentials', { query: { accountId: w.accountId } });
  expect(creds.body.data).toEqual([
    expect.objectContaining({ id: w.emailOtpId, accountId: w.accountId, type: 'EMAIL_OTP', nickname: w.email }),
  ]);

  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  expect(ch.status).toBe(200);
  expect(ch.body).toMatchObject({ id: w.emailOtpId, type: 'EMAIL_OTP', nickname: w.email });
  const target = targetKeyOf(ch.body.otpEncryptionTargetBundle);
  expect(target.targetPublic).toMatch(/^04[0-9a-f]{128}$/);
  expect(target.signatureValid).toBe(true);
  // Sandbox: the code is 000000 and nothing is delivered.
  expect(outboxOf(p.platformId, w.email)).toEqual([]);

  const tek = newClientKey();
  const body = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', tek),
  };
  const first = await p.api.post(verifyPath(w.emailOtpId), body);
  expect(first.status, first.text).toBe(202);
  expect(first.body).toMatchObject({ type: 'EMAIL_OTP', requestId: expect.stringMatching(/^Request:/) });
  const claims = JSON.parse(Buffer.from(first.body.payloadToSign.split('.')[1], 'base64url').toString());
  expect(claims).toMatchObject({ public_key: tek.publicKey, sub: w.emailOtpId, request_id: first.body.requestId });

  const res = await p.api.post(verifyPath(w.emailOtpId), body, {
    headers: signatureHeaders(first.body.payloadToSign, tek, first.body.requestId),
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({
    id: expect.stringMatching(/^Session:/),
    accountId: w.accountId,
    type: 'EMAIL_OTP',
    nickname: w.email,
  });
  expect(res.body.encryptedSessionSigningKey).toBeUndefined();
  expect(new Date(res.body.expiresAt).getTime()).toBeGreaterThan(Date.now());
  const sessions = await p.api.get('/auth/sessions', { query: { accountId: w.accountId } });
  expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([res.body.id]);

  // The session key is the TEK: it signs the next wallet action; a stranger's key does not.
  const privacy = await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, tek);
  expect(privacy.res.status, privacy.res.text).toBe(200);
  const stranger = await signed(
    p.api,
    'PATCH',
    `/internal-accounts/${w.accountId}`,
    { privateEnabled: false },
    newClientKey(),
  );
  expectError(stranger.res, 401, 'WALLET_SIGNATURE_INVALID');

  // The same requestId again is refused.
  const replay = await p.api.post(verifyPath(w.emailOtpId), body, {
    headers: signatureHeaders(first.body.payloadToSign, tek, first.body.requestId),
  });
  expectError(replay, 401, 'UNAUTHORIZED');
  expect(replay.body.details.reason).toBe('Request-Id already used');
  // The code was single use: the first leg again finds nothing pending.
  const again = await p.api.post(verifyPath(w.emailOtpId), body);
  expectError(again, 401, 'UNAUTHORIZED');
  expect(again.body.details.reason).toBe('No OTP code is pending');
});

it('accepts the TEK public key uncompressed in the sealed bundle, and the Grid-Wallet-Signature spelling', async () => {
  const w = await newWallet(p);
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  const tek = newClientKey();
  const { targetPublic } = targetKeyOf(ch.body.otpEncryptionTargetBundle);
  const sealed = await sealTo(
    targetPublic,
    new TextEncoder().encode(JSON.stringify({ otp_code: '000000', public_key: tek.publicKeyUncompressed })),
  );
  const body = { type: 'EMAIL_OTP', encryptedOtpBundle: JSON.stringify(sealed) };
  const first = await p.api.post(verifyPath(w.emailOtpId), body);
  expect(first.status).toBe(202);
  const res = await p.api.post(verifyPath(w.emailOtpId), body, {
    headers: signatureHeaders(first.body.payloadToSign, tek, first.body.requestId, 'Grid-Wallet-Signature'),
  });
  expect(res.status, res.text).toBe(200);
});

it('rejects a wrong code with 401 "Invalid OTP code", and after five wrong codes answers 429 until a new code', async () => {
  const w = await newWallet(p);
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  for (let i = 0; i < 5; i++) {
    const wrong = await p.api.post(verifyPath(w.emailOtpId), {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '123456', newClientKey()),
    });
    expectError(wrong, 401, 'UNAUTHORIZED');
    expect(wrong.body.details.reason).toBe('Invalid OTP code');
  }
  const locked = await p.api.post(verifyPath(w.emailOtpId), {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', newClientKey()),
  });
  expectError(locked, 429, 'RATE_LIMITED');
  expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  await advance(p, 31);
  await otpLogin(p.api, w.emailOtpId);
});

it('evaluates at most 5 of 30 concurrent wrong codes; then the code is dead until a new one', async () => {
  const w = await newWallet(p);
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  const bundles = await Promise.all(
    Array.from({ length: 30 }, () => encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '654321', newClientKey())),
  );
  const answers = await Promise.all(
    bundles.map((b) => p.api.post(verifyPath(w.emailOtpId), { type: 'EMAIL_OTP', encryptedOtpBundle: b })),
  );
  const evaluated = answers.filter((r) => r.status === 401);
  expect(evaluated).toHaveLength(5);
  for (const r of evaluated) expect(r.body.details.reason).toBe('Invalid OTP code');
  for (const r of answers.filter((x) => x.status !== 401)) expectError(r, 429, 'RATE_LIMITED');
  const right = await p.api.post(verifyPath(w.emailOtpId), {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', newClientKey()),
  });
  expectError(right, 429, 'RATE_LIMITED');
  const code = await db().oneTimeCode.findFirstOrThrow({ where: { purpose: 'WALLET_OTP', subject: w.emailOtpId } });
  expect(code).toMatchObject({ attempts: 5, state: 'EXHAUSTED' });
});

it('rate-limits re-issues with 429 and Retry-After; a re-issue supersedes the previous target key', async () => {
  const w = await newWallet(p);
  const first = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  expect(first.status).toBe(200);
  const again = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  expectError(again, 429, 'RATE_LIMITED');
  const retryAfter = Number(again.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(30);
  await advance(p, retryAfter);
  const second = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  expect(second.status).toBe(200);
  expect(targetKeyOf(second.body.otpEncryptionTargetBundle).targetPublic).not.toBe(
    targetKeyOf(first.body.otpEncryptionTargetBundle).targetPublic,
  );
  const stale = await p.api.post(verifyPath(w.emailOtpId), {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(first.body.otpEncryptionTargetBundle, '000000', newClientKey()),
  });
  expectError(stale, 401, 'UNAUTHORIZED');
  expect(stale.body.details.reason).toMatch(/does not decrypt/);
  await otpLogin(p.api, w.emailOtpId, { targetBundle: second.body.otpEncryptionTargetBundle });
});

it('expires codes and signed requests by the (sandbox) clock', async () => {
  const w = await newWallet(p);
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  await advance(p, 301);
  const late = await p.api.post(verifyPath(w.emailOtpId), {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', newClientKey()),
  });
  expectError(late, 401, 'UNAUTHORIZED');
  expect(late.body.details.reason).toBe('OTP code expired');

  const fresh = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  const tek = newClientKey();
  const body = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(fresh.body.otpEncryptionTargetBundle, '000000', tek),
  };
  const first = await p.api.post(verifyPath(w.emailOtpId), body);
  expect(first.status).toBe(202);
  await advance(p, 301);
  const retry = await p.api.post(verifyPath(w.emailOtpId), body, {
    headers: signatureHeaders(first.body.payloadToSign, tek, first.body.requestId),
  });
  expectError(retry, 401, 'UNAUTHORIZED');
  expect(retry.body.details.reason).toBe('Signed request expired');
});

it('outside sandbox sends a random code through the sender; 000000 is then just a wrong code', async () => {
  const q = await newPlatform();
  await q.api.patch('/config', {
    embeddedWalletConfig: { otpLength: 8, alphanumeric: true, appName: 'Acme Wallet' },
  });
  const w = await newWallet(q);
  switchMode('production');
  const ch = await q.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  expect(ch.status, ch.text).toBe(200);
  const sent = outboxOf(q.platformId, w.email);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ channel: 'EMAIL', purpose: 'WALLET_OTP', to: w.email });
  const code = /code is ([A-Z0-9]+)\./.exec(sent[0].text)![1];
  expect(code).toMatch(/^[A-Z0-9]{8}$/);
  const magic = await q.api.post(verifyPath(w.emailOtpId), {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', newClientKey()),
  });
  expectError(magic, 401, 'UNAUTHORIZED');
  expect(magic.body.details.reason).toBe('Invalid OTP code');
  // Codes compare case-insensitively (alphanumeric codes are shown in capitals).
  await otpLogin(q.api, w.emailOtpId, { code: code.toLowerCase(), targetBundle: ch.body.otpEncryptionTargetBundle });
});

it('adds an SMS_OTP credential (signed by an existing session), whose registration triggers the first code', async () => {
  const w = await newWallet(p, { phoneNumber: '+14155550123' });
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const { challenge, res } = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { type: 'SMS_OTP', accountId: w.accountId },
    key,
  );
  expect(challenge.body.type).toBe('SMS_OTP');
  expect(JSON.parse(challenge.body.payloadToSign)).toMatchObject({
    type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
    parameters: { userPhoneNumber: '+14155550123' },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({ type: 'SMS_OTP', nickname: '+14155550123', accountId: w.accountId });
  expect(targetKeyOf(res.body.otpEncryptionTargetBundle).signatureValid).toBe(true);
  const sms = await otpLogin(p.api, res.body.id, {
    type: 'SMS_OTP',
    targetBundle: res.body.otpEncryptionTargetBundle,
  });
  expect(sms.session).toMatchObject({ type: 'SMS_OTP', nickname: '+14155550123' });
  // Rule 3: one SMS_OTP per account, one EMAIL_OTP per account.
  expectError(
    await p.api.post('/auth/credentials', { type: 'SMS_OTP', accountId: w.accountId }),
    400,
    'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
  );
  expectError(
    await p.api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: w.accountId }),
    400,
    'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
  );
  // A customer without a phone number cannot have an SMS_OTP credential.
  const plain = await newWallet(p);
  expectError(
    await p.api.post('/auth/credentials', { type: 'SMS_OTP', accountId: plain.accountId }),
    400,
    'INVALID_INPUT',
  );
});
