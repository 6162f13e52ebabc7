import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import * as factor from './second-factor';
import * as staff from './service';
import type { StaffActor } from './roles';

// Staff session revocation by generation (issue 26, point 8): a password change, a role change,
// a disabling, "Sign out everywhere" and an admin's second-factor reset each move the member to a
// new generation, and a session opened under an older one resolves to no actor from its next
// request (the console then sends it to sign-in). The self-service password change keeps the
// session that made it; recovery codes are replaced by a current TOTP code only. Every action
// and every refusal is in the audit trail.
let p: TestPlatform;
let admin: StaffActor;
let n = 0;
const PASSWORD = 'the-right-password-gen';
const newAddress = () => `10.${[...randomBytes(3)].join('.')}`;
const codeOf = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

async function member(role: 'admin' | 'viewer' = 'viewer') {
  const email = `gen-${process.pid}-${Date.now()}-${++n}@staff.example`;
  await staff.createUser(p.platformId, { email, role, password: PASSWORD }, db());
  const open = async (password = PASSWORD) => (await staff.signIn(email, password, newAddress())).sessionId;
  const first = await open();
  return { email, open, first, actor: (await staff.actorOf(first))! };
}

async function withFactor(m: Awaited<ReturnType<typeof member>>) {
  const { secret } = await factor.startEnrolment(m.actor);
  const { recoveryCodes } = await factor.confirmEnrolment(m.actor, codeOf(secret));
  return { secret, recoveryCodes };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: unknown) => {
      const errors = e instanceof DomainError ? (e.details?.errors as { field?: string }[] | undefined) : undefined;
      return e instanceof DomainError ? `${e.code}:${errors?.[0]?.field ?? ''}` : String(e);
    },
  );

const audit = (email: string) =>
  db()
    .staffAuditEntry.findMany({ where: { staffEmail: email }, orderBy: { createdAt: 'asc' } })
    .then((rows) => rows.map((r) => ({ action: r.action, details: r.details as Record<string, unknown> })));

beforeAll(async () => {
  p = await newPlatform();
  admin = (await member('admin')).actor;
});

describe('session generation', () => {
  it('a session carries its generation; the actor names its session', async () => {
    const m = await member();
    const row = await db().staffSession.findUniqueOrThrow({ where: { id: m.first } });
    const user = await db().staffUser.findUniqueOrThrow({ where: { id: m.actor.staffUserId } });
    expect(row.generation).toBe(user.sessionGeneration);
    expect(m.actor.staffSessionId).toBe(m.first);
  });

  it('"Sign out everywhere" ends every session, this one too; a new sign-in works; audited', async () => {
    const m = await member();
    const second = await m.open();
    await staff.signOutEverywhere(m.actor);
    expect(await staff.actorOf(m.first)).toBeNull();
    expect(await staff.actorOf(second)).toBeNull();
    expect(await staff.actorOf(await m.open())).not.toBeNull();
    expect((await audit(m.email)).map((a) => a.action)).toContain('staff.sessions.revoke');
  });

  it('a role change ends the member’s sessions; they sign in again with the new role', async () => {
    const m = await member();
    await staff.setRole(admin, m.actor.staffUserId, 'operator');
    expect(await staff.actorOf(m.first)).toBeNull();
    expect((await staff.actorOf(await m.open()))?.role).toBe('operator');
  });

  it('a disabling ends them for good: enabling again does not bring an old session back', async () => {
    const m = await member();
    await staff.setDisabled(admin, m.actor.staffUserId, true);
    expect(await staff.actorOf(m.first)).toBeNull();
    await staff.setDisabled(admin, m.actor.staffUserId, false);
    expect(await staff.actorOf(m.first)).toBeNull();
    expect(await staff.actorOf(await m.open())).not.toBeNull();
  });

  it('an admin’s reset of the second factor ends the member’s sessions', async () => {
    const m = await member();
    await withFactor(m);
    await factor.resetFor(admin, m.actor.staffUserId);
    expect(await staff.actorOf(m.first)).toBeNull();
    expect(await staff.actorOf(await m.open())).not.toBeNull();
  });

  it('another member’s bump leaves this member’s sessions alone', async () => {
    const a = await member();
    const b = await member();
    await staff.signOutEverywhere(b.actor);
    expect(await staff.actorOf(a.first)).not.toBeNull();
  });
});

describe('self-service password change', () => {
  it('takes the current password and a current TOTP code; keeps this session, ends the others; audited', async () => {
    const m = await member();
    const { secret, recoveryCodes } = await withFactor(m);
    // A second session elsewhere (by a recovery code: the enrolment spent the current step).
    const second = (await staff.completeSignIn(await challengeOf(m.email), recoveryCodes[0]!, newAddress())).sessionId;
    const next = 'a-brand-new-password-1';
    await staff.changePassword(m.actor, { currentPassword: PASSWORD, code: codeOf(secret, 1), newPassword: next });
    expect(await staff.actorOf(m.first)).not.toBeNull();
    expect(await staff.actorOf(second)).toBeNull();
    expect(await failure(staff.signIn(m.email, PASSWORD, newAddress()))).toBe('UNAUTHORIZED:');
    expect(await staff.signIn(m.email, next, newAddress()).catch((e: unknown) => e)).toBeInstanceOf(
      staff.SecondFactorRequired,
    );
    const change = (await audit(m.email)).find((a) => a.action === 'staff.password.change');
    expect(change?.details).toMatchObject({ email: m.email });
    expect(JSON.stringify(change?.details)).not.toContain(next);
  });

  it('refuses a wrong current password, a wrong, replayed or recovery code, and a weak password; nothing changes', async () => {
    const m = await member();
    const { secret, recoveryCodes } = await withFactor(m);
    const next = 'another-new-password-2';
    const change = (currentPassword: string, code: string, newPassword = next) =>
      failure(staff.changePassword(m.actor, { currentPassword, code, newPassword }));
    expect(await change('not-the-password', codeOf(secret))).toBe('INVALID_INPUT:currentPassword');
    expect(await change(PASSWORD, '000000')).toBe('INVALID_INPUT:code');
    expect(await change(PASSWORD, recoveryCodes[0]!)).toBe('INVALID_INPUT:code');
    expect(await change(PASSWORD, '')).toBe('INVALID_INPUT:code');
    expect(await change(PASSWORD, codeOf(secret), 'short')).toBe('INVALID_INPUT:newPassword');
    expect(await change(PASSWORD, codeOf(secret), PASSWORD)).toBe('INVALID_INPUT:newPassword');
    // The enrolment used the current step: that code is spent.
    expect(await change(PASSWORD, codeOf(secret, -1))).toBe('INVALID_INPUT:code');
    expect(await staff.actorOf(m.first)).not.toBeNull();
    expect(await staff.signIn(m.email, PASSWORD, newAddress()).catch((e: unknown) => e)).toBeInstanceOf(
      staff.SecondFactorRequired,
    );
    const reasons = (await audit(m.email))
      .filter((a) => a.action === 'staff.password.change.refused')
      .map((a) => a.details.reason);
    expect(reasons).toEqual(['wrong_password', 'wrong_code', 'wrong_code', 'wrong_code', 'replayed_code']);
  });

  it('without a second factor the current password suffices', async () => {
    const m = await member();
    const second = await m.open();
    await staff.changePassword(m.actor, { currentPassword: PASSWORD, code: '', newPassword: 'no-factor-new-pass' });
    expect(await staff.actorOf(m.first)).not.toBeNull();
    expect(await staff.actorOf(second)).toBeNull();
    expect(await staff.actorOf(await m.open('no-factor-new-pass'))).not.toBeNull();
  });
});

describe('recovery codes', () => {
  it('new ones take a current TOTP code; the old ones stop working, the new ones sign in once; audited', async () => {
    const m = await member();
    const { secret, recoveryCodes: old } = await withFactor(m);
    expect(await failure(factor.regenerateRecoveryCodes(m.actor, '000000'))).toBe('INVALID_INPUT:code');
    expect(await failure(factor.regenerateRecoveryCodes(m.actor, old[0]!))).toBe('INVALID_INPUT:code');
    const { recoveryCodes } = await factor.regenerateRecoveryCodes(m.actor, codeOf(secret, 1));
    expect(recoveryCodes).toHaveLength(old.length);
    expect(recoveryCodes.some((c) => old.includes(c))).toBe(false);
    expect(await factor.recoveryCodesLeft(m.actor.staffUserId)).toBe(recoveryCodes.length);
    expect(await failure(staff.completeSignIn(await challengeOf(m.email), old[1]!, newAddress()))).toBe(
      'UNAUTHORIZED:',
    );
    const opened = await staff.completeSignIn(await challengeOf(m.email), recoveryCodes[0]!, newAddress());
    expect(await staff.actorOf(opened.sessionId)).not.toBeNull();
    expect(await failure(staff.completeSignIn(await challengeOf(m.email), recoveryCodes[0]!, newAddress()))).toBe(
      'UNAUTHORIZED:',
    );
    const actions = (await audit(m.email)).map((a) => a.action);
    expect(actions.filter((a) => a === 'staff.second_factor.recovery_codes.refused')).toHaveLength(2);
    expect(actions).toContain('staff.second_factor.recovery_codes');
  });

  it('an account without a second factor has none to regenerate', async () => {
    const m = await member();
    expect(await failure(factor.regenerateRecoveryCodes(m.actor, '123456'))).toBe('INVALID_STATE_TRANSITION:');
  });
});

async function challengeOf(email: string): Promise<string> {
  const err = await staff.signIn(email, PASSWORD, newAddress()).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof staff.SecondFactorRequired)) throw new Error('expected a second-factor challenge');
  return err.challengeId;
}
