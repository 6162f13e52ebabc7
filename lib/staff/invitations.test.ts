import { beforeAll, describe, expect, it, vi, afterEach } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import * as invitations from './invitations';
import * as staff from './service';
import type { StaffActor } from './roles';

// Invitations by one-time link: accepted once with the member's own password, refused when
// expired, revoked or reused; only admins invite and revoke; the token is stored hashed.
let p: TestPlatform;
let admin: StaffActor;
let n = 0;
const PASSWORD = 'a-password-of-my-own';
const newEmail = () => `invited-${process.pid}-${Date.now()}-${++n}@staff.example`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );

beforeAll(async () => {
  p = await newPlatform();
  const email = newEmail();
  await staff.createUser(p.platformId, { email, role: 'admin', password: PASSWORD }, db());
  admin = (await staff.actorOf((await staff.signIn(email, PASSWORD, '10.9.9.9')).sessionId))!;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('invitations', () => {
  it('accepted once: the member signs in with the password they chose; a second use is refused', async () => {
    const email = newEmail();
    const { invitation, token } = await invitations.invite(admin, { email, role: 'operator' });
    const stored = await db().staffInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await invitations.listPending(p.platformId)).map((i) => i.id)).toContain(invitation.id);
    expect((await invitations.findByToken(token)).email).toBe(email);
    expect(await failure(invitations.accept(token, 'short'))).toBe('INVALID_INPUT');
    const user = await invitations.accept(token, PASSWORD);
    expect(user).toMatchObject({ email, role: 'operator' });
    const { sessionId } = await staff.signIn(email, PASSWORD, '10.9.9.10');
    expect((await staff.actorOf(sessionId))?.role).toBe('operator');
    expect(await failure(invitations.accept(token, 'another-long-password'))).toBe('UNAUTHORIZED');
    expect((await invitations.listPending(p.platformId)).map((i) => i.id)).not.toContain(invitation.id);
    const audit = await db().staffAuditEntry.findMany({ where: { objectId: { in: [invitation.id, user.id] } } });
    const invitationEntries = audit.map((a) => a.action).filter((a) => a.startsWith('staff.invite'));
    expect(invitationEntries.sort()).toEqual(['staff.invite', 'staff.invite.accept']);
  });

  it('concurrent accepts of one link create one account', async () => {
    const { token } = await invitations.invite(admin, { email: newEmail(), role: 'viewer' });
    const results = await Promise.all([1, 2, 3].map(() => failure(invitations.accept(token, PASSWORD))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
  });

  it('an expired link is refused', async () => {
    const { token } = await invitations.invite(admin, { email: newEmail(), role: 'viewer' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (invitations.INVITATION_HOURS * 3600 + 1) * 1000);
    expect(await failure(invitations.accept(token, PASSWORD))).toBe('UNAUTHORIZED');
  });

  it('a revoked link is refused; only admins invite and revoke', async () => {
    const { invitation, token } = await invitations.invite(admin, { email: newEmail(), role: 'viewer' });
    await invitations.revoke(admin, invitation.id);
    expect(await failure(invitations.accept(token, PASSWORD))).toBe('UNAUTHORIZED');
    expect(await failure(invitations.revoke(admin, invitation.id))).toBe('REFERENCE_NOT_FOUND');
    const viewer = { ...admin, role: 'viewer' as const };
    expect(await failure(invitations.invite(viewer, { email: newEmail(), role: 'viewer' }))).toBe('FORBIDDEN');
    expect(await failure(invitations.findByToken('not-a-token'))).toBe('UNAUTHORIZED');
  });

  it('an email that already has an account is refused', async () => {
    expect(await failure(invitations.invite(admin, { email: admin.email, role: 'viewer' }))).toBe('CONFLICT');
  });
});
