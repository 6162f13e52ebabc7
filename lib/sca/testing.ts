import { expect } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { db } from '@/lib/core/db';
import { nowFor } from '@/lib/core/clock';
import { setClockOffset } from '@/lib/platform/repository';
import { assert, attest, newPasskey, type Passkey } from '@/lib/wallet-auth/testing/passkey';
import type { TestPlatform } from '@/tests/support/api';

// Test helpers for Strong Customer Authentication: customers in an SCA region with a verified
// phone, real TOTP codes computed from the enrolled secret on the platform's clock, and a
// software WebAuthn authenticator (lib/wallet-auth/testing.ts) answering in the standard JSON forms.
let seq = 0;
const address = { line1: '1 Hauptstr.', city: 'Berlin', postalCode: '10115', country: 'DE' };

export interface ScaTestCustomer {
  id: string;
  phoneNumber: string;
  email: string;
  q: { customerId: string };
}

export async function euCustomer(
  p: TestPlatform,
  opts: { verifyPhone?: boolean; email?: string; region?: string } = {},
): Promise<ScaTestCustomer> {
  const n = ++seq;
  const phoneNumber = `+4930${String(Date.now() % 1e6).padStart(6, '0')}${String(n).padStart(3, '0')}`;
  const res = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: `Sca Person ${n}`,
    region: opts.region ?? 'DE',
    address,
    email: opts.email ?? `sca${n}.${Date.now()}@example.com`,
    phoneNumber,
  });
  expect(res.status, res.text).toBe(201);
  const id = res.body.id as string;
  if (opts.verifyPhone !== false && (opts.region ?? 'DE') === 'DE') {
    expect((await p.api.post(`/customers/${id}/verify-phone`)).status).toBe(204);
    expect((await p.api.post(`/customers/${id}/verify-phone/confirm`, { code: '123456' })).status).toBe(200);
  }
  return { id, phoneNumber, email: res.body.email, q: { customerId: id } };
}

/** The platform's sandbox time (what the service validates TOTP codes against). */
export async function platformNow(p: TestPlatform): Promise<number> {
  const row = await db().platform.findUniqueOrThrow({ where: { id: p.platformId } });
  return nowFor(row).getTime();
}

export async function advanceClock(p: TestPlatform, seconds: number): Promise<void> {
  const row = await db().platform.findUniqueOrThrow({ where: { id: p.platformId } });
  await setClockOffset(p.platformId, row.clockOffsetMs + BigInt(Math.round(seconds * 1000)));
}

/** The RFC 6238 code an authenticator app shows for `secretBase32`, `stepOffset` steps from now. */
export async function totpCode(p: TestPlatform, secretBase32: string, stepOffset = 0): Promise<string> {
  return TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: (await platformNow(p)) + stepOffset * 30_000,
  });
}

/** navigator.credentials.create() as RegistrationResponseJSON. */
export function registration(pk: Passkey, challenge: string, opts: { origin?: string } = {}) {
  const a = attest(pk, challenge, opts);
  return {
    id: a.credentialId,
    rawId: a.credentialId,
    type: 'public-key',
    response: { clientDataJSON: a.clientDataJson, attestationObject: a.attestationObject, transports: a.transports },
    clientExtensionResults: {},
  };
}

/** navigator.credentials.get() as AuthenticationResponseJSON. */
export function authentication(pk: Passkey, challenge: string, opts: { origin?: string; flags?: number } = {}) {
  const a = assert(pk, challenge, { ...opts, rawChallenge: true });
  return {
    id: a.credentialId,
    rawId: a.credentialId,
    type: 'public-key',
    response: { clientDataJSON: a.clientDataJson, authenticatorData: a.authenticatorData, signature: a.signature },
    clientExtensionResults: {},
  };
}

export const ORIGIN = 'http://localhost:3000';

/** Enrolls a TOTP factor with a real code; returns its secret and recovery codes. */
export async function enrollTotp(p: TestPlatform, c: ScaTestCustomer) {
  const start = await p.api.post('/sca/factors', { type: 'TOTP' }, { query: c.q });
  expect(start.status, start.text).toBe(200);
  const code = await totpCode(p, start.body.secretBase32Encoded);
  const done = await p.api.post(
    '/sca/factors/confirm',
    { type: 'TOTP', secret: start.body.secret, code },
    { query: c.q },
  );
  expect(done.status, done.text).toBe(200);
  return { secret: start.body.secretBase32Encoded as string, recoveryCodes: done.body.recoveryCodes as string[] };
}

/** Enrolls a passkey made by a new software authenticator. */
export async function enrollPasskey(p: TestPlatform, c: ScaTestCustomer) {
  const pk = newPasskey();
  const start = await p.api.post('/sca/factors', { type: 'PASSKEY' }, { query: c.q });
  expect(start.status, start.text).toBe(200);
  const credential = registration(pk, start.body.options.challenge);
  const done = await p.api.post(
    '/sca/factors/confirm',
    { type: 'PASSKEY', origin: ORIGIN, credential },
    { query: c.q },
  );
  expect(done.status, done.text).toBe(200);
  return { pk, credentialId: done.body.factor.credentialId as string };
}

export { newPasskey };
