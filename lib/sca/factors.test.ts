import { afterEach, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { ORIGIN, enrollPasskey, enrollTotp, euCustomer, newPasskey, registration, totpCode } from './testing';
import { switchMode } from '@/tests/support/mode';

// SCA factors over HTTP: the implicit SMS_OTP, TOTP enrollment with real RFC 6238 codes, passkey
// enrollment with a software WebAuthn authenticator, one of each, deletion, and the 409 every SCA
// operation answers for customers outside SCA regions.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform({ embeddedWallet: false });
});
afterEach(() => {
  switchMode('sandbox');
  delete process.env.CORRIDOR_SCA_REGIONS;
});

it('lists SMS_OTP once the phone is verified, and enrolled factors', async () => {
  const unverified = await euCustomer(p, { verifyPhone: false });
  const none = await p.api.get('/sca/factors', { query: unverified.q });
  expect(none.status, none.text).toBe(200);
  expect(none.body).toEqual({ factors: [] });
  const c = await euCustomer(p);
  const sms = await p.api.get('/sca/factors', { query: c.q });
  expect(sms.body.factors).toEqual([{ factor: 'SMS_OTP', name: `SMS to •••${c.phoneNumber.slice(-4)}` }]);
  await enrollTotp(p, c);
  const { credentialId } = await enrollPasskey(p, c);
  const all = await p.api.get('/sca/factors', { query: c.q });
  expect(all.body.factors.map((f: { factor: string }) => f.factor)).toEqual(['SMS_OTP', 'TOTP', 'PASSKEY']);
  expect(all.body.factors[2]).toMatchObject({ factor: 'PASSKEY', credentialId });
  expect(all.body.factors[1].credentialId).toBeUndefined();
});

it('enrolls TOTP with a real code: secret and recovery codes shown once, stored sealed and hashed', async () => {
  const c = await euCustomer(p);
  const start = await p.api.post('/sca/factors', { type: 'TOTP' }, { query: c.q });
  expect(start.status, start.text).toBe(200);
  expect(start.body).toMatchObject({ type: 'TOTP', secret: expect.stringMatching(/^[0-9a-f]{40}$/) });
  expect(start.body.totpUri).toMatch(/^otpauth:\/\/totp\/Corridor:.+secret=[A-Z2-7]+/);
  expect(start.body.totpUri).toContain(start.body.secretBase32Encoded);

  const wrongSecret = await p.api.post(
    '/sca/factors/confirm',
    { type: 'TOTP', secret: 'ab'.repeat(20), code: await totpCode(p, start.body.secretBase32Encoded) },
    { query: c.q },
  );
  expectError(wrongSecret, 400, 'INVALID_INPUT');
  expect(wrongSecret.body.details.errors[0].field).toBe('secret');
  const wrongCode = await p.api.post(
    '/sca/factors/confirm',
    { type: 'TOTP', secret: start.body.secret, code: '000001' },
    { query: c.q },
  );
  expectError(wrongCode, 400, 'INVALID_INPUT');
  expect(wrongCode.body.message).toMatch(/3 attempt\(s\) left/);

  // The base32 form of the secret binds the confirmation as well as the hex one.
  const code = await totpCode(p, start.body.secretBase32Encoded);
  const done = await p.api.post(
    '/sca/factors/confirm',
    { type: 'TOTP', secret: start.body.secretBase32Encoded, code },
    { query: c.q },
  );
  expect(done.status, done.text).toBe(200);
  expect(done.body.type).toBe('TOTP');
  expect(done.body.recoveryCodes).toHaveLength(10);
  for (const r of done.body.recoveryCodes) expect(r).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  const row = await db().scaFactor.findFirstOrThrow({ where: { customerId: c.id, type: 'TOTP' } });
  const stored = JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
  expect(stored).not.toContain(start.body.secret);
  expect(stored).not.toContain(start.body.secretBase32Encoded);
  for (const r of done.body.recoveryCodes) expect(stored).not.toContain(r.replace(/-/g, ''));
  expect(row.recoveryCodes).toHaveLength(10);
  expect(row.state).toBe('ACTIVE');

  // Only one TOTP factor; the enrollment is over.
  expectError(await p.api.post('/sca/factors', { type: 'TOTP' }, { query: c.q }), 409, 'CONFLICT');
  expectError(
    await p.api.post('/sca/factors/confirm', { type: 'TOTP', secret: start.body.secret, code }, { query: c.q }),
    400,
    'INVALID_INPUT',
  );
});

it('accepts the sandbox code 123456 in sandbox only, and caps wrong confirmations', async () => {
  const c = await euCustomer(p);
  const start = await p.api.post('/sca/factors', { type: 'TOTP' }, { query: c.q });
  switchMode('production');
  const refused = await p.api.post(
    '/sca/factors/confirm',
    { type: 'TOTP', secret: start.body.secret, code: '123456' },
    { query: c.q },
  );
  // (A real code may be 123456 once in a million: then it is accepted, as it should be.)
  if (refused.status !== 200) expectError(refused, 400, 'INVALID_INPUT');
  switchMode('sandbox');
  if (refused.status !== 200) {
    const ok = await p.api.post(
      '/sca/factors/confirm',
      { type: 'TOTP', secret: start.body.secret, code: '123456' },
      { query: c.q },
    );
    expect(ok.status, ok.text).toBe(200);
  }

  const d = await euCustomer(p);
  const s2 = await p.api.post('/sca/factors', { type: 'TOTP' }, { query: d.q });
  const attempts = await Promise.all(
    Array.from({ length: 12 }, () =>
      p.api.post('/sca/factors/confirm', { type: 'TOTP', secret: s2.body.secret, code: '000002' }, { query: d.q }),
    ),
  );
  for (const r of attempts) expectError(r, 400, 'INVALID_INPUT');
  const row = await db().scaFactor.findFirstOrThrow({ where: { customerId: d.id, type: 'TOTP' } });
  expect(row.attempts).toBe(5);
  const late = await p.api.post(
    '/sca/factors/confirm',
    { type: 'TOTP', secret: s2.body.secret, code: await totpCode(p, s2.body.secretBase32Encoded) },
    { query: d.q },
  );
  expectError(late, 400, 'INVALID_INPUT');
  expect(late.body.message).toMatch(/Too many wrong confirmations/);
});

it('enrolls one passkey with a real WebAuthn registration; deletes it by credential id', async () => {
  const c = await euCustomer(p);
  const start = await p.api.post('/sca/factors', { type: 'PASSKEY' }, { query: c.q });
  expect(start.status, start.text).toBe(200);
  expect(start.body).toMatchObject({ type: 'PASSKEY', allowedOrigins: [ORIGIN], relyingPartyId: 'localhost' });
  expect(start.body.options).toMatchObject({ rp: { id: 'localhost' }, attestation: 'none' });
  const pk = newPasskey();
  const evil = await p.api.post(
    '/sca/factors/confirm',
    { type: 'PASSKEY', origin: 'https://evil.example', credential: registration(pk, start.body.options.challenge) },
    { query: c.q },
  );
  expectError(evil, 400, 'INVALID_INPUT');
  const otherChallenge = await p.api.post(
    '/sca/factors/confirm',
    { type: 'PASSKEY', origin: ORIGIN, credential: registration(pk, 'AAAAAAAAAAAAAAAAAAAAAA') },
    { query: c.q },
  );
  expectError(otherChallenge, 400, 'INVALID_INPUT');
  expect(otherChallenge.body.message).toMatch(/challenge/i);

  const done = await p.api.post(
    '/sca/factors/confirm',
    { type: 'PASSKEY', origin: ORIGIN, credential: registration(pk, start.body.options.challenge) },
    { query: c.q },
  );
  expect(done.status, done.text).toBe(200);
  expect(done.body).toEqual({
    type: 'PASSKEY',
    factor: { factor: 'PASSKEY', credentialId: Buffer.from(pk.credentialId).toString('base64url'), name: 'Passkey' },
  });
  expectError(await p.api.post('/sca/factors', { type: 'PASSKEY' }, { query: c.q }), 409, 'PASSKEY_ALREADY_ENROLLED');

  const credentialId = done.body.factor.credentialId;
  expectError(await p.api.delete('/sca/factors/nope', { query: c.q }), 404, 'REFERENCE_NOT_FOUND');
  const other = await euCustomer(p);
  expectError(await p.api.delete(`/sca/factors/${credentialId}`, { query: other.q }), 404, 'REFERENCE_NOT_FOUND');
  expect((await p.api.delete(`/sca/factors/${credentialId}`, { query: c.q })).status).toBe(204);
  expectError(await p.api.delete(`/sca/factors/${credentialId}`, { query: c.q }), 404, 'REFERENCE_NOT_FOUND');
  // Deleted: a new one may be enrolled.
  await enrollPasskey(p, c);
});

it('refuses bad input with 400 and unknown customers with 404', async () => {
  const c = await euCustomer(p);
  expectError(await p.api.post('/sca/factors', { type: 'SMS_OTP' }, { query: c.q }), 400, 'INVALID_INPUT');
  expectError(await p.api.post('/sca/factors', { type: 'TOTP' }), 400, 'INVALID_INPUT');
  expectError(await p.api.get('/sca/factors'), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post('/sca/factors/confirm', { type: 'PASSKEY', origin: ORIGIN, credential: {} }, { query: c.q }),
    400,
    'INVALID_INPUT',
  );
  const q = { customerId: 'Customer:00000000-0000-0000-0000-000000000000' };
  expectError(await p.api.get('/sca/factors', { query: q }), 404, 'USER_NOT_FOUND');
  expectError(await p.api.post('/sca/factors', { type: 'TOTP' }, { query: q }), 404, 'USER_NOT_FOUND');
  const other = await newPlatform();
  expectError(await other.api.get('/sca/factors', { query: c.q }), 404, 'USER_NOT_FOUND');
  const viewer = await p.withPermissions('VIEW');
  expectError(await viewer.post('/sca/factors', { type: 'TOTP' }, { query: c.q }), 403, 'FORBIDDEN');
  expectError(await p.api.get('/sca/factors', { query: c.q, authorization: null }), 401, 'UNAUTHORIZED');
});

it('answers 409 on every SCA and contact-verification operation for customers outside SCA regions', async () => {
  const us = await euCustomer(p, { region: 'US' });
  const q = { query: us.q };
  const answers = [
    await p.api.get('/sca/factors', q),
    await p.api.post('/sca/factors', { type: 'TOTP' }, q),
    await p.api.post('/sca/factors/confirm', { type: 'TOTP', secret: 'ab'.repeat(20), code: '123456' }, q),
    await p.api.delete('/sca/factors/abc', q),
    await p.api.post('/sca/login/start', { factor: 'SMS_OTP' }, q),
    await p.api.post('/sca/login/complete', { factor: 'TOTP', endUserIpAddress: '203.0.113.7', code: '123456' }, q),
    await p.api.post('/sca/record-event', { eventType: 'FAILED_LOGIN_ATTEMPT' }, q),
    await p.api.post('/sca/factors/reset', { factor: 'SMS_OTP' }, q),
    await p.api.get('/sca/factors/reset/TwoFactorReset:x', q),
    await p.api.post('/sca/factors/reset/TwoFactorReset:x/complete', undefined, q),
    await p.api.post(`/customers/${us.id}/verify-phone`),
    await p.api.post(`/customers/${us.id}/verify-email/confirm`, { code: '123456' }),
  ];
  for (const r of answers) expectError(r, 409, 'CONFLICT');
  expect(await db().scaFactor.count({ where: { customerId: us.id } })).toBe(0);
});

it('takes the SCA regions from CORRIDOR_SCA_REGIONS', async () => {
  const c = await euCustomer(p);
  process.env.CORRIDOR_SCA_REGIONS = 'GB,CH';
  expectError(await p.api.get('/sca/factors', { query: c.q }), 409, 'CONFLICT');
  const gb = await euCustomer(p, { region: 'GB' });
  expect((await p.api.get('/sca/factors', { query: gb.q })).status).toBe(200);
  delete process.env.CORRIDOR_SCA_REGIONS;
  expect((await p.api.get('/sca/factors', { query: c.q })).status).toBe(200);
});
