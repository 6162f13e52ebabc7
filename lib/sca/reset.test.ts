import { afterEach, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { freezeClock } from '@/lib/sandbox/clock';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advanceClock, enrollPasskey, enrollTotp, euCustomer, platformNow, type ScaTestCustomer } from './testing';
import { switchMode } from '@/tests/support/mode';

// The liveness-gated 2FA reset over HTTP: start, poll on the sandbox clock (the liveness outcome
// chosen by the customer's email), complete; the 5-per-24-hours limit; re-enrollment afterwards.
// The platform's clock is frozen (it moves only when advanced): the liveness steps at 10 s and
// 20 s hold to the second.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform({ embeddedWallet: false });
  await freezeClock(p.platformId);
});
afterEach(() => {
  switchMode('sandbox');
});

const startReset = (c: ScaTestCustomer, factor: string) => p.api.post('/sca/factors/reset', { factor }, { query: c.q });
const poll = (c: ScaTestCustomer, id: string) => p.api.get(`/sca/factors/reset/${id}`, { query: c.q });
const finish = (c: ScaTestCustomer, id: string, body?: unknown) =>
  p.api.post(`/sca/factors/reset/${id}/complete`, body, { query: c.q });

it('resets a lost TOTP once liveness passes; the customer enrolls again', async () => {
  const c = await euCustomer(p);
  expectError(await startReset(c, 'TOTP'), 400, 'INVALID_INPUT');
  await enrollTotp(p, c);
  const s = await startReset(c, 'TOTP');
  expect(s.status, s.text).toBe(201);
  expect(s.body).toMatchObject({
    resetId: expect.stringMatching(/^TwoFactorReset:/),
    livenessAccessToken: expect.stringMatching(/^sandbox_liveness_/),
    verificationLink: expect.stringContaining(`/sandbox/liveness/${encodeURIComponent(s.body.resetId)}`),
  });
  expect(Date.parse(s.body.expiresAt) - (await platformNow(p))).toBeGreaterThan(29 * 60_000);
  const id = s.body.resetId;

  const initiated = await poll(c, id);
  expect(initiated.status, initiated.text).toBe(200);
  expect(initiated.body).toMatchObject({
    status: 'INITIATED',
    factor: 'TOTP',
    enrollmentStatus: 'PENDING',
    completedAt: null,
  });
  expectError(await finish(c, id), 400, 'INVALID_INPUT');
  await advanceClock(p, 9);
  expect((await poll(c, id)).body.status).toBe('INITIATED');
  await advanceClock(p, 1);
  expect((await poll(c, id)).body.status).toBe('PENDING_REVIEW');
  expectError(await finish(c, id), 400, 'INVALID_INPUT');
  await advanceClock(p, 9);
  expect((await poll(c, id)).body.status).toBe('PENDING_REVIEW');
  await advanceClock(p, 1);
  expect((await poll(c, id)).body.status).toBe('LIVENESS_PASSED');

  expect((await finish(c, id)).status).toBe(204);
  const done = await poll(c, id);
  expect(done.body).toMatchObject({ status: 'COMPLETED', enrollmentStatus: 'PENDING' });
  expect(done.body.completedAt).toEqual(expect.any(String));
  expect(
    (await p.api.get('/sca/factors', { query: c.q })).body.factors.map((f: { factor: string }) => f.factor),
  ).toEqual(['SMS_OTP']);
  expectError(await finish(c, id), 400, 'INVALID_INPUT');

  await advanceClock(p, 1);
  await enrollTotp(p, c);
  expect((await poll(c, id)).body.enrollmentStatus).toBe('COMPLETED');
});

it('resets a passkey, and ends the SCA sessions', async () => {
  const c = await euCustomer(p);
  await enrollPasskey(p, c);
  const login = await p.api.post('/sca/login/start', { factor: 'SMS_OTP' }, { query: c.q });
  await p.api.post(
    '/sca/login/complete',
    { factor: 'SMS_OTP', challengeId: login.body.challengeId, code: '123456', endUserIpAddress: '203.0.113.1' },
    { query: c.q },
  );
  const id = (await startReset(c, 'PASSKEY')).body.resetId;
  await advanceClock(p, 21);
  expect((await finish(c, id)).status).toBe(204);
  expect(await db().scaFactor.count({ where: { customerId: c.id } })).toBe(0);
  expect(await db().scaSession.count({ where: { customerId: c.id, revokedAt: null } })).toBe(0);
  // A new passkey may be enrolled.
  await enrollPasskey(p, c);
});

it('an SMS_OTP reset needs the new mobile number, which becomes the verified phone', async () => {
  const c = await euCustomer(p);
  const id = (await startReset(c, 'SMS_OTP')).body.resetId;
  await advanceClock(p, 21);
  expect((await poll(c, id)).body).toMatchObject({ status: 'LIVENESS_PASSED', enrollmentStatus: null });
  const missing = await finish(c, id);
  expectError(missing, 400, 'INVALID_INPUT');
  expect(missing.body.details.errors[0].field).toBe('mobile');
  expectError(await finish(c, id, { mobile: { countryCode: '49', number: '1701234567' } }), 400, 'INVALID_INPUT');
  expect((await finish(c, id, { mobile: { countryCode: '+49', number: '1709876543' } })).status).toBe(204);
  const customer = (await p.api.get(`/customers/${c.id}`)).body;
  expect(customer.phoneNumber).toBe('+491709876543');
  expect(customer.contactVerification.phone).toBe('VERIFIED');
  const factors = (await p.api.get('/sca/factors', { query: c.q })).body.factors;
  expect(factors).toEqual([{ factor: 'SMS_OTP', name: 'SMS to •••6543' }]);
});

it('the sandbox liveness outcome follows the email: liveness-rejected, liveness-pending', async () => {
  const rejected = await euCustomer(p, { email: `a+liveness-rejected.${Date.now()}@example.com` });
  const r = (await startReset(rejected, 'SMS_OTP')).body.resetId;
  const pending = await euCustomer(p, { email: `b+liveness-pending.${Date.now()}@example.com` });
  const q = (await startReset(pending, 'SMS_OTP')).body.resetId;
  await advanceClock(p, 21);
  expect((await poll(rejected, r)).body.status).toBe('REJECTED');
  expectError(
    await finish(rejected, r, { mobile: { countryCode: '+49', number: '1700000001' } }),
    400,
    'INVALID_INPUT',
  );
  expect((await poll(pending, q)).body.status).toBe('PENDING_REVIEW');
  await advanceClock(p, 30 * 60);
  expect((await poll(pending, q)).body.status).toBe('EXPIRED');
  expect((await poll(rejected, r)).body.status).toBe('REJECTED');
});

it('starts at most 5 resets per customer in 24 hours (429 with Retry-After)', async () => {
  const c = await euCustomer(p);
  for (let i = 0; i < 5; i++) expect((await startReset(c, 'SMS_OTP')).status).toBe(201);
  const sixth = await startReset(c, 'SMS_OTP');
  expectError(sixth, 429, 'RATE_LIMITED');
  const wait = Number(sixth.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(24 * 3600 - 120);
  expect(wait).toBeLessThanOrEqual(24 * 3600);
  await advanceClock(p, wait + 1);
  expect((await startReset(c, 'SMS_OTP')).status).toBe(201);
});

it("404 for an unknown or another customer's reset; 503 outside sandbox with no liveness provider", async () => {
  const c = await euCustomer(p);
  const other = await euCustomer(p);
  const id = (await startReset(c, 'SMS_OTP')).body.resetId;
  expectError(await poll(other, id), 404, 'REFERENCE_NOT_FOUND');
  expectError(await finish(other, id), 404, 'REFERENCE_NOT_FOUND');
  expectError(await poll(c, 'TwoFactorReset:nope'), 404, 'REFERENCE_NOT_FOUND');
  expectError(await startReset(c, 'EMAIL'), 400, 'INVALID_INPUT');
  switchMode('production');
  expectError(await startReset(c, 'SMS_OTP'), 503, 'SERVICE_UNAVAILABLE');
});
