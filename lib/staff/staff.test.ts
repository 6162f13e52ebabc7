import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { upload } from '@/lib/documents/testing';
import { historyOf } from './audit';
import { hashPassword, verifyPassword } from './password';
import * as ops from './operations';
import * as staff from './service';
import type { StaffActor } from './roles';

// Staff accounts: slow password hashes, sign-in with its throttle, sessions ended on the server,
// roles checked by every console operation, and the audit entry each operation leaves.
let p: TestPlatform;
let n = 0;
const email = (role: string) => `${role}-${process.pid}-${Date.now()}-${++n}@staff.example`;
const refusal = (err: unknown) => (err instanceof DomainError ? err.code : String(err));

async function member(role: 'viewer' | 'operator' | 'admin'): Promise<StaffActor> {
  const password = 'a-long-enough-password';
  const { user } = await staff.createUser(p.platformId, { email: email(role), role, password }, db());
  const { sessionId } = await staff.signIn(user.email, password);
  const actor = await staff.actorOf(sessionId);
  expect(actor?.role).toBe(role);
  return actor!;
}

beforeAll(async () => {
  p = await newPlatform();
});

describe('staff passwords', () => {
  it('are scrypt hashes with their parameters and salt, checked in constant time', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$15\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash); // salted
  });

  it('shorter than 12 characters, a malformed email or an unknown role are refused', async () => {
    for (const input of [
      { email: email('x'), role: 'viewer', password: 'short' },
      { email: 'not-an-email', role: 'viewer', password: 'a-long-enough-password' },
      { email: email('x'), role: 'root', password: 'a-long-enough-password' },
    ])
      await expect(staff.createUser(p.platformId, input, db())).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('staff sign-in', () => {
  it('opens a session for the right password only; sign-out ends it at once', async () => {
    const address = email('viewer');
    await staff.createUser(p.platformId, { email: address, role: 'viewer', password: 'right-password-123' }, db());
    await expect(staff.signIn(address, 'wrong-password-123')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const { sessionId } = await staff.signIn(address.toUpperCase(), 'right-password-123');
    expect((await staff.actorOf(sessionId))?.email).toBe(address);
    await staff.signOut(sessionId);
    expect(await staff.actorOf(sessionId)).toBeNull();
  });

  it('an expired session, a disabled user and an unknown session id open nothing', async () => {
    const admin = await member('admin');
    const address = email('operator');
    const { user } = await staff.createUser(
      p.platformId,
      {
        email: address,
        role: 'operator',
        password: 'right-password-123',
      },
      db(),
    );
    const { sessionId } = await staff.signIn(address, 'right-password-123');
    await db().staffSession.update({ where: { id: sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await staff.actorOf(sessionId)).toBeNull();
    const second = await staff.signIn(address, 'right-password-123');
    await staff.setDisabled(admin, user.id, true);
    expect(await staff.actorOf(second.sessionId)).toBeNull();
    // Disabled: the right password gets the same answer as a wrong one.
    await expect(staff.signIn(address, 'right-password-123')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    // Enabled again, the sessions opened before the disabling stay dead.
    await staff.setDisabled(admin, user.id, false);
    expect(await staff.actorOf(second.sessionId)).toBeNull();
    expect(await staff.actorOf('StaffSession:00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});

// A customer whose KYC verification waits for a manual review.
async function reviewable() {
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Review Me 001',
    birthDate: '1990-01-15',
    nationality: 'US',
    idType: 'SSN',
    identifier: '123-45-6789',
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
  });
  expect(c.status, c.text).toBe(201);
  expect((await upload(p.api, c.body.id, 'PASSPORT')).status).toBe(201);
  const v = await p.api.post('/verifications', { customerId: c.body.id });
  expect(v.body.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  return { customerId: c.body.id as string, verificationId: v.body.id as string };
}

const why = { reasonCode: 'DOCUMENTS_VERIFIED', note: 'Passport matches' };

describe('console operations: roles and the audit trail', () => {
  it('a viewer may not decide a review; an operator may, and the decision is recorded on the customer', async () => {
    const { customerId, verificationId } = await reviewable();
    const viewer = await member('viewer');
    expect(refusal(await ops.decideReview(viewer, verificationId, 'APPROVED', why).catch((e) => e))).toBe('FORBIDDEN');
    expect((await p.api.get(`/customers/${customerId}`)).body.kycStatus).toBe('PENDING');
    expect(await historyOf(p.platformId, [customerId])).toEqual([]);

    const operator = await member('operator');
    const v = await ops.decideReview(operator, verificationId, 'APPROVED', why);
    expect(v.verificationStatus).toBe('APPROVED');
    expect((await p.api.get(`/customers/${customerId}`)).body.kycStatus).toBe('APPROVED');
    const [entry] = await historyOf(p.platformId, [customerId]);
    expect(entry).toMatchObject({
      action: 'verification.approve',
      objectId: customerId,
      staffUserId: operator.staffUserId,
      staffEmail: operator.email,
      details: { verificationId, ...why },
    });
    // Decided once: a second decision is refused by the verification's state, not recorded.
    const late = { reasonCode: 'OTHER', note: 'late' };
    expect(refusal(await ops.decideReview(operator, verificationId, 'REJECTED', late).catch((e) => e))).toBe(
      'INVALID_STATE_TRANSITION',
    );
    expect(await historyOf(p.platformId, [customerId])).toHaveLength(1);
  });

  it('tokens and configuration are for admins; what an admin does is recorded', async () => {
    const operator = await member('operator');
    expect(refusal(await ops.createToken(operator, { name: 'x', permissions: ['VIEW'] }).catch((e) => e))).toBe(
      'FORBIDDEN',
    );
    expect(refusal(await ops.changeConfig(operator, { webhookEndpoint: null }).catch((e) => e))).toBe('FORBIDDEN');
    const admin = await member('admin');
    const t = await ops.createToken(admin, { name: 'Reporting', permissions: ['VIEW'] });
    expect(t.clientSecret).toBeTruthy();
    const [entry] = await historyOf(p.platformId, [t.id]);
    expect(entry).toMatchObject({ action: 'token.create', staffEmail: admin.email });
    await ops.revokeToken(admin, t.id);
    expect((await historyOf(p.platformId, [t.id])).map((e) => e.action)).toEqual(['token.revoke', 'token.create']);
    // The API's own validation applies to the console's configuration changes.
    expect(refusal(await ops.changeConfig(admin, { webhookEndpoint: 'ftp://x' }).catch((e) => e))).toBe(
      'INVALID_INPUT',
    );
  });

  it('replaying a webhook and moving the sandbox clock need an operator', async () => {
    const viewer = await member('viewer');
    expect(refusal(await ops.replayWebhook(viewer, 'Webhook:x').catch((e) => e))).toBe('FORBIDDEN');
    expect(refusal(await ops.advanceSandboxClock(viewer, 60).catch((e) => e))).toBe('FORBIDDEN');
    const operator = await member('operator');
    const r = await ops.advanceSandboxClock(operator, 60);
    expect(r.offsetSeconds).toBeGreaterThanOrEqual(60);
    expect((await historyOf(p.platformId, [p.platformId]))[0]).toMatchObject({ action: 'sandbox.clock.advance' });
  });

  it('the last active admin can neither be demoted nor disabled', async () => {
    const q = await newPlatform();
    const { user } = await staff.createUser(
      q.platformId,
      {
        email: email('only'),
        role: 'admin',
        password: 'only-admin-pass',
      },
      db(),
    );
    const { sessionId } = await staff.signIn(user.email, 'only-admin-pass');
    const only = (await staff.actorOf(sessionId))!;
    expect(refusal(await staff.setRole(only, user.id, 'viewer').catch((e) => e))).toBe('INVALID_STATE_TRANSITION');
    expect(refusal(await staff.setDisabled(only, user.id, true).catch((e) => e))).toBe('INVALID_STATE_TRANSITION');
    const { user: second } = await staff.addUser(only, { email: email('second'), role: 'admin' });
    await staff.setRole(only, user.id, 'viewer');
    // A role change ends the member's sessions (a new session generation); the next has the new role.
    expect(await staff.actorOf(sessionId)).toBeNull();
    const again = await staff.signIn(user.email, 'only-admin-pass');
    expect((await staff.actorOf(again.sessionId))?.role).toBe('viewer');
    expect(second.role).toBe('admin');
  });
});
