import { beforeAll, describe, expect, it, vi } from 'vitest';
import { encode } from 'next-auth/jwt';
import { tokenKey } from '@/lib/core/crypto/vault';
import { historyOf } from '@/lib/staff/audit';
import * as staff from '@/lib/staff/service';
import { upload } from '@/lib/documents/testing';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { current, CookieJar } from './cookie-jar';
import { db } from '@/lib/core/db';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// The console's server actions as Next.js runs them: the session comes from the request's cookie
// (a next-auth JWT naming a staff session), the role is checked on the server, refusals come back
// as results (never thrown to the page), and what was done is in the audit trail.
const actions = await import('@/app/console/_lib/actions');

let p: TestPlatform;
let n = 0;

/** A browser signed in as a new staff member of `role` (the cookie next-auth would have set). */
async function browserOf(role: 'viewer' | 'operator' | 'admin') {
  const email = `${role}-${process.pid}-${++n}@console.example`;
  await staff.createUser(p.platformId, { email, role, password: 'console-password-1' }, db());
  const { sessionId, user } = await staff.signIn(email, 'console-password-1');
  const token = await encode({
    token: { sub: user.id, email, sid: sessionId },
    secret: tokenKey('staff-sessions').toString('base64url'),
    salt: 'corridor_staff',
  });
  return { jar: new CookieJar().set('corridor_staff', token), sessionId, email };
}

async function reviewable() {
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Action Review 001',
    birthDate: '1990-01-15',
    nationality: 'US',
    idType: 'SSN',
    identifier: '123-45-6789',
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
  });
  await upload(p.api, c.body.id, 'PASSPORT');
  const v = await p.api.post('/verifications', { customerId: c.body.id });
  expect(v.body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  return { customerId: c.body.id as string, verificationId: v.body.id as string };
}

beforeAll(async () => {
  p = await newPlatform();
});

describe('console server actions', () => {
  it('refuse a request without a session, or with a forged or signed-out one', async () => {
    const { verificationId } = await reviewable();
    current.jar = new CookieJar();
    expect(await actions.decideReviewAction(verificationId, 'APPROVED', 'DOCUMENTS_VERIFIED', '')).toMatchObject({
      ok: false,
      code: 'UNAUTHORIZED',
    });
    current.jar = new CookieJar().set('corridor_staff', 'forged-token');
    expect(await actions.decideReviewAction(verificationId, 'APPROVED', 'DOCUMENTS_VERIFIED', '')).toMatchObject({
      ok: false,
      code: 'UNAUTHORIZED',
    });
    const operator = await browserOf('operator');
    await staff.signOut(operator.sessionId);
    current.jar = operator.jar;
    expect(await actions.decideReviewAction(verificationId, 'APPROVED', 'DOCUMENTS_VERIFIED', '')).toMatchObject({
      ok: false,
      code: 'UNAUTHORIZED',
    });
    expect((await p.api.get(`/verifications/${verificationId}`)).body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  });

  it('refuse a role that is short, and record who did what when it is not', async () => {
    const { customerId, verificationId } = await reviewable();
    current.jar = (await browserOf('viewer')).jar;
    expect(await actions.decideReviewAction(verificationId, 'REJECTED', 'DOCUMENT_EXPIRED', 'n')).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
    });
    expect(await actions.createTokenAction('x', ['VIEW'])).toMatchObject({ ok: false, code: 'FORBIDDEN' });

    const operator = await browserOf('operator');
    current.jar = operator.jar;
    expect(await actions.decideReviewAction(verificationId, 'SOMETHING', 'OTHER', 'n')).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
    expect(await actions.decideReviewAction(verificationId, 'REJECTED', 'DOCUMENT_EXPIRED', '')).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
    expect(await actions.decideReviewAction(verificationId, 'REJECTED', 'DOCUMENT_EXPIRED', 'Expired in 2020')).toEqual(
      {
        ok: true,
        value: { verificationStatus: 'REJECTED' },
      },
    );
    expect((await p.api.get(`/customers/${customerId}`)).body.kycStatus).toBe('REJECTED');
    expect(await historyOf(p.platformId, [customerId])).toMatchObject([
      {
        action: 'verification.reject',
        staffEmail: operator.email,
        details: { reasonCode: 'DOCUMENT_EXPIRED', note: 'Expired in 2020' },
      },
    ]);
    expect(await actions.createTokenAction('x', ['VIEW'])).toMatchObject({ ok: false, code: 'FORBIDDEN' });

    current.jar = (await browserOf('admin')).jar;
    const created = await actions.createTokenAction('From the console', ['VIEW']);
    expect(created.ok).toBe(true);
    if (created.ok)
      expect(
        (
          await p.api.get('/config', {
            authorization: `Basic ${Buffer.from(`${created.value.clientId}:${created.value.clientSecret}`).toString('base64')}`,
          })
        ).status,
      ).toBe(200);
  });
});
