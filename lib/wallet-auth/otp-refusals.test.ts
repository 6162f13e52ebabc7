import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { newWallet, signatureHeaders } from './testing/flows';
import { encryptOtpBundle, newClientKey, stamp, stampOf } from './testing/client';
import { switchMode } from '@/tests/support/mode';

// How EMAIL_OTP verification refuses: each failure of the TEK-stamped signed retry with its own
// code, and malformed challenge answers (otp.test.ts walks the flows that succeed).
const verifyPath = (id: string) => `/auth/credentials/${id}/verify`;

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});
afterEach(() => {
  switchMode('sandbox');
});

it('names every signed-retry failure with its own 401 code', async () => {
  const w = await newWallet(p);
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  const tek = newClientKey();
  const body = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', tek),
  };
  const first = await p.api.post(verifyPath(w.emailOtpId), body);
  const good = signatureHeaders(first.body.payloadToSign, tek, first.body.requestId);

  expectError(
    await p.api.post(verifyPath(w.emailOtpId), body, { headers: { 'Request-Id': first.body.requestId } }),
    401,
    'WALLET_SIGNATURE_MISSING',
  );
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), body, {
      headers: { 'Service-Wallet-Signature': good['Service-Wallet-Signature'] },
    }),
    401,
    'REQUEST_ID_MISSING',
  );
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), body, {
      headers: { ...good, 'Service-Wallet-Signature': 'not-a-stamp!' },
    }),
    401,
    'WALLET_SIGNATURE_MALFORMED',
  );
  const unknown = await p.api.post(verifyPath(w.emailOtpId), body, {
    headers: { ...good, 'Request-Id': 'Request:00000000-0000-4000-8000-000000000000' },
  });
  expectError(unknown, 401, 'UNAUTHORIZED');
  expect(unknown.body.details.reason).toBe('Unknown Request-Id');
  // Body changed after signing.
  const tampered = {
    ...body,
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', newClientKey()),
  };
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), tampered, { headers: good }),
    401,
    'WALLET_SIGNATURE_BODY_MISMATCH',
  );
  // Signed over something else, or by a key other than the sealed TEK.
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), body, {
      headers: { ...good, 'Service-Wallet-Signature': stamp(first.body.payloadToSign + ' ', tek) },
    }),
    401,
    'WALLET_SIGNATURE_INVALID',
  );
  const other = await p.api.post(verifyPath(w.emailOtpId), body, {
    headers: signatureHeaders(first.body.payloadToSign, newClientKey(), first.body.requestId),
  });
  expectError(other, 401, 'WALLET_SIGNATURE_INVALID');
  expect(other.body.details.reason).toMatch(/other than the one bound/);
  // A stamp claiming the TEK but carrying another key's signature.
  const forged = stampOf(
    tek.publicKey,
    JSON.parse(Buffer.from(stamp(first.body.payloadToSign, newClientKey()), 'base64url').toString()).signature,
  );
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), body, { headers: { ...good, 'Service-Wallet-Signature': forged } }),
    401,
    'WALLET_SIGNATURE_INVALID',
  );
  // None of those consumed the request: the genuine retry still works, once.
  expect((await p.api.post(verifyPath(w.emailOtpId), body, { headers: good })).status).toBe(200);
});

it('accepts a high-S stamp', async () => {
  const w = await newWallet(p);
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  const tek = newClientKey();
  const body = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(ch.body.otpEncryptionTargetBundle, '000000', tek),
  };
  const first = await p.api.post(verifyPath(w.emailOtpId), body);
  const res = await p.api.post(verifyPath(w.emailOtpId), body, {
    headers: {
      'Service-Wallet-Signature': stamp(first.body.payloadToSign, tek, { highS: true }),
      'Request-Id': first.body.requestId,
    },
  });
  expect(res.status, res.text).toBe(200);
});

it('refuses malformed input: 400 for a bundle that is not {"encappedPublic","ciphertext"}, a type that is not the credential\'s; 404 for an unknown credential', async () => {
  const w = await newWallet(p);
  await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), { type: 'EMAIL_OTP', encryptedOtpBundle: 'hello' }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: JSON.stringify({ encappedPublic: '04zz', ciphertext: '00' }),
    }),
    400,
    'INVALID_INPUT',
  );
  expectError(
    await p.api.post(verifyPath(w.emailOtpId), { type: 'SMS_OTP', encryptedOtpBundle: '{}' }),
    400,
    'INVALID_INPUT',
  );
  expectError(await p.api.post(verifyPath(w.emailOtpId), { type: 'EMAIL_OTP' }), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post(verifyPath('AuthMethod:00000000-0000-4000-8000-000000000000'), {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: '{}',
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  expectError(await p.api.post('/auth/credentials/nope/challenge'), 404, 'REFERENCE_NOT_FOUND');
});
