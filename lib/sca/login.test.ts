import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { outboxOf } from '@/lib/notify/sender';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import {
  ORIGIN,
  advanceClock,
  authentication,
  enrollPasskey,
  enrollTotp,
  euCustomer,
  platformNow,
  totpCode,
  type ScaTestCustomer,
} from './testing';
import { switchMode } from '@/tests/support/mode';

// SCA logins over HTTP with every factor (SMS code, real TOTP codes, a software WebAuthn
// authenticator), the session they open, the lockout after failed logins (423) and
// POST /sca/record-event.
const ip = '203.0.113.42';

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform({ embeddedWallet: false });
});
afterEach(() => {
  switchMode('sandbox');
  delete process.env.CORRIDOR_SCA_SESSION_SECONDS;
});

const start = (c: ScaTestCustomer, factor: string) => p.api.post('/sca/login/start', { factor }, { query: c.q });
const complete = (c: ScaTestCustomer, body: Record<string, unknown>) =>
  p.api.post('/sca/login/complete', { endUserIpAddress: ip, ...body }, { query: c.q });

it('SMS_OTP: sends a code bound to the challenge, opens a 30-minute session, throttles re-issue', async () => {
  const c = await euCustomer(p);
  const s = await start(c, 'SMS_OTP');
  expect(s.status, s.text).toBe(200);
  expect(s.body).toMatchObject({ factor: 'SMS_OTP', challengeId: expect.stringMatching(/^Challenge:/) });
  expect(Date.parse(s.body.expiresAt) - (await platformNow(p))).toBeGreaterThan(290_000);
  expect(outboxOf(p.platformId, c.phoneNumber).at(-1)).toMatchObject({ purpose: 'SCA_LOGIN' });
  expect(outboxOf(p.platformId, c.phoneNumber).at(-1)!.text).toContain('123456');

  const again = await start(c, 'SMS_OTP');
  expectError(again, 429, 'RATE_LIMITED');
  expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(25);

  expectError(await complete(c, { factor: 'SMS_OTP', code: '123456' }), 400, 'INVALID_INPUT');
  const wrong = await complete(c, { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '654321' });
  expectError(wrong, 400, 'INVALID_INPUT');
  expect(wrong.body.details.failedAttempts).toBe(1);
  const other = await complete(c, { factor: 'SMS_OTP', challengeId: 'Challenge:other', code: '123456' });
  expectError(other, 400, 'INVALID_INPUT');
  expect(other.body.details.errors[0].field).toBe('challengeId');

  const ok = await complete(c, { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '123456' });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body.status).toBe('SUCCESS');
  expect(Date.parse(ok.body.sessionExpiresAt) - (await platformNow(p))).toBeGreaterThan(29 * 60_000);
  const session = await db().scaSession.findFirstOrThrow({ where: { customerId: c.id } });
  expect(session).toMatchObject({ factor: 'SMS_OTP', endUserIpAddress: ip, revokedAt: null });
  // Single use.
  const replay = await complete(c, { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '123456' });
  expectError(replay, 400, 'INVALID_INPUT');

  // Without a verified phone there is no SMS_OTP factor.
  const unverified = await euCustomer(p, { verifyPhone: false });
  expectError(await start(unverified, 'SMS_OTP'), 400, 'INVALID_INPUT');
});

it('TOTP: real codes, each time step once; recovery codes once each; unknown factor 400', async () => {
  const c = await euCustomer(p);
  expectError(await start(c, 'TOTP'), 400, 'INVALID_INPUT');
  expectError(await start(c, 'PASSKEY'), 400, 'INVALID_INPUT');
  const { secret, recoveryCodes } = await enrollTotp(p, c);
  const s = await start(c, 'TOTP');
  expect(s.status, s.text).toBe(200);
  expect(s.body).toEqual({ factor: 'TOTP' });
  // The step the enrollment used is spent; the next one works once.
  expectError(await complete(c, { factor: 'TOTP', code: await totpCode(p, secret) }), 400, 'INVALID_INPUT');
  const next = await totpCode(p, secret, 1);
  const ok = await complete(c, { factor: 'TOTP', code: next });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body.status).toBe('SUCCESS');
  expectError(await complete(c, { factor: 'TOTP', code: next }), 400, 'INVALID_INPUT');
  // Two steps ahead is outside the accepted drift.
  expectError(await complete(c, { factor: 'TOTP', code: await totpCode(p, secret, 3) }), 400, 'INVALID_INPUT');

  const recovery = recoveryCodes[0];
  expect((await complete(c, { factor: 'TOTP', code: recovery.toLowerCase() })).status).toBe(200);
  expectError(await complete(c, { factor: 'TOTP', code: recovery }), 400, 'INVALID_INPUT');
  const row = await db().scaFactor.findFirstOrThrow({ where: { customerId: c.id, type: 'TOTP' } });
  expect(row.recoveryCodes).toHaveLength(9);
});

it('TOTP: outside sandbox only real codes', async () => {
  const c = await euCustomer(p);
  const { secret } = await enrollTotp(p, c);
  switchMode('production');
  const real = await totpCode(p, secret, 1);
  if (real !== '123456') expectError(await complete(c, { factor: 'TOTP', code: '123456' }), 400, 'INVALID_INPUT');
  expect((await complete(c, { factor: 'TOTP', code: real })).status).toBe(200);
  switchMode('sandbox');
  expect((await complete(c, { factor: 'TOTP', code: '123456' })).status).toBe(200);
});

it('PASSKEY: a real WebAuthn assertion over the login challenge', async () => {
  const c = await euCustomer(p);
  const { pk, credentialId } = await enrollPasskey(p, c);
  const s = await start(c, 'PASSKEY');
  expect(s.status, s.text).toBe(200);
  expect(s.body).toMatchObject({ factor: 'PASSKEY', allowedOrigins: [ORIGIN], relyingPartyId: 'localhost' });
  expect(s.body.passkeyOptions.allowCredentials).toEqual([expect.objectContaining({ id: credentialId })]);
  const challenge = s.body.passkeyOptions.challenge;

  const evil = await complete(c, {
    factor: 'PASSKEY',
    origin: 'https://evil.example',
    passkeyAssertion: authentication(pk, challenge),
  });
  expectError(evil, 400, 'INVALID_INPUT');
  const noPresence = await complete(c, {
    factor: 'PASSKEY',
    origin: ORIGIN,
    passkeyAssertion: authentication(pk, challenge, { flags: 0 }),
  });
  expectError(noPresence, 400, 'INVALID_INPUT');
  expectError(await complete(c, { factor: 'PASSKEY', origin: ORIGIN }), 400, 'INVALID_INPUT');

  const ok = await complete(c, {
    factor: 'PASSKEY',
    origin: ORIGIN,
    passkeyAssertion: authentication(pk, challenge),
  });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body.status).toBe('SUCCESS');
  // The challenge is spent.
  const replay = await complete(c, {
    factor: 'PASSKEY',
    origin: ORIGIN,
    passkeyAssertion: authentication(pk, challenge),
  });
  expectError(replay, 400, 'INVALID_INPUT');
});

it('locks the login after 5 failures (423) and counts concurrent failures exactly', async () => {
  const c = await euCustomer(p);
  const { secret } = await enrollTotp(p, c);
  const answers = await Promise.all(Array.from({ length: 5 }, () => complete(c, { factor: 'TOTP', code: '000003' })));
  for (const r of answers) expectError(r, 400, 'INVALID_INPUT');
  expect(answers.map((r) => r.body.details.failedAttempts).sort()).toEqual([1, 2, 3, 4, 5]);
  const locked = await complete(c, { factor: 'TOTP', code: await totpCode(p, secret, 1) });
  expectError(locked, 423, 'ACCOUNT_LOCKED');
  expect(locked.body.details).toMatchObject({ suspended: false, failedAttempts: 5 });
  expect(Date.parse(locked.body.details.lockedUntil) - (await platformNow(p))).toBeGreaterThan(14 * 60_000);
  await advanceClock(p, 15 * 60 + 1);
  expect((await complete(c, { factor: 'TOTP', code: await totpCode(p, secret) })).status).toBe(200);
});

it('caps SMS code attempts atomically: 5 of 30 concurrent wrong codes are compared', async () => {
  const c = await euCustomer(p);
  const s = await start(c, 'SMS_OTP');
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      complete(c, { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '654321' }),
    ),
  );
  // Each refusal is a failed login: the lockout escalates to 423 part-way through.
  for (const r of answers) expect([400, 423]).toContain(r.status);
  const code = await db().oneTimeCode.findFirstOrThrow({ where: { purpose: 'SCA_LOGIN', subject: c.id } });
  expect(code).toMatchObject({ attempts: 5, state: 'EXHAUSTED' });
  expect(answers.filter((r) => r.body.message === 'The code is wrong').length).toBeLessThanOrEqual(5);
});

it('sessions last CORRIDOR_SCA_SESSION_SECONDS', async () => {
  process.env.CORRIDOR_SCA_SESSION_SECONDS = '60';
  const c = await euCustomer(p);
  const s = await start(c, 'SMS_OTP');
  const ok = await complete(c, { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '123456' });
  expect(Date.parse(ok.body.sessionExpiresAt) - (await platformNow(p))).toBeLessThanOrEqual(60_000);
});

describe('POST /sca/record-event', () => {
  const record = (c: ScaTestCustomer, eventType: string) =>
    p.api.post('/sca/record-event', { eventType }, { query: c.q });

  it('escalates the lockout at each milestone, suspends at 9, and a password reset clears it', async () => {
    const c = await euCustomer(p);
    for (let i = 1; i <= 4; i++) {
      const r = await record(c, 'FAILED_LOGIN_ATTEMPT');
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({
        eventType: 'FAILED_LOGIN_ATTEMPT',
        suspended: false,
        lockedUntil: null,
        failedAttempts: i,
      });
    }
    const fifth = await record(c, 'FAILED_LOGIN_ATTEMPT');
    expect(fifth.status).toBe(200);
    const t0 = await platformNow(p);
    expect(Math.round((Date.parse(fifth.body.lockedUntil) - t0) / 60_000)).toBe(15);
    for (const [n, minutes] of [
      [6, 30],
      [7, 60],
      [8, 24 * 60],
    ]) {
      const r = await record(c, 'FAILED_LOGIN_ATTEMPT');
      expectError(r, 423, 'ACCOUNT_LOCKED');
      expect(r.body.details.failedAttempts).toBe(n);
      expect(Math.round((Date.parse(r.body.details.lockedUntil) - t0) / 60_000)).toBe(minutes);
    }
    const ninth = await record(c, 'FAILED_LOGIN_ATTEMPT');
    expectError(ninth, 423, 'ACCOUNT_LOCKED');
    expect(ninth.body.details).toEqual({ suspended: true, lockedUntil: null, failedAttempts: 9 });
    await advanceClock(p, 25 * 3600);
    // Suspension has no automatic expiry.
    expectError(await complete(c, { factor: 'SMS_OTP', challengeId: 'x', code: '123456' }), 423, 'ACCOUNT_LOCKED');

    const s = await start(c, 'SMS_OTP');
    const reset = await record(c, 'RESET_PASSWORD_COMPLETED');
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toEqual({
      eventType: 'RESET_PASSWORD_COMPLETED',
      suspended: false,
      lockedUntil: null,
      failedAttempts: 0,
    });
    expect((await complete(c, { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '123456' })).status).toBe(
      200,
    );
  });

  it('revokes the SCA sessions on a password reset; refuses an unknown event type', async () => {
    const c = await euCustomer(p);
    const s = await start(c, 'SMS_OTP');
    await complete(c, { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '123456' });
    expect(await db().scaSession.count({ where: { customerId: c.id, revokedAt: null } })).toBe(1);
    expect((await record(c, 'RESET_PASSWORD_COMPLETED')).status).toBe(200);
    expect(await db().scaSession.count({ where: { customerId: c.id, revokedAt: null } })).toBe(0);
    expectError(await record(c, 'LOGGED_IN'), 400, 'INVALID_INPUT');
    expectError(
      await p.api.post(
        '/sca/record-event',
        { eventType: 'FAILED_LOGIN_ATTEMPT' },
        { query: { customerId: 'Customer:00000000-0000-0000-0000-000000000000' } },
      ),
      404,
      'USER_NOT_FOUND',
    );
  });
});
