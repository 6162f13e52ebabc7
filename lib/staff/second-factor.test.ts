import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import * as factor from './second-factor';
import * as staff from './service';
import { PAIR, pruneSignInLimits } from './sign-in-limits';
import type { StaffActor } from './roles';

// The staff TOTP second factor: enrolment confirmed by a code, sign-in in two steps with no
// session before the code, wrong and replayed codes refused, throttled and audited, recovery codes
// good once, an admin's reset and turning one's own factor off with a code.
let p: TestPlatform;
let n = 0;
const PASSWORD = 'the-right-password-2fa';
const newAddress = () => `10.${[...randomBytes(3)].join('.')}`;
/** The code of the time step `offset` steps from now (the factor accepts one step either way). */
const codeOf = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

async function member(role: 'admin' | 'viewer' = 'viewer'): Promise<StaffActor> {
  const email = `twofa-${process.pid}-${Date.now()}-${++n}@staff.example`;
  await staff.createUser(p.platformId, { email, role, password: PASSWORD }, db());
  const { sessionId } = await staff.signIn(email, PASSWORD, newAddress());
  return (await staff.actorOf(sessionId))!;
}

async function enrolled(role: 'admin' | 'viewer' = 'viewer') {
  const actor = await member(role);
  const { uri, secret } = await factor.startEnrolment(actor);
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const { recoveryCodes } = await factor.confirmEnrolment(actor, codeOf(secret));
  return { actor, secret, recoveryCodes };
}

/** The challenge a right password earns on an enrolled account (no session yet). */
async function challenge(email: string, address: string): Promise<string> {
  const err = await staff.signIn(email, PASSWORD, address).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(staff.SecondFactorRequired);
  return (err as staff.SecondFactorRequired).challengeId;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );

async function refusals(email: string) {
  const rows = await db().staffAuditEntry.findMany({
    where: { staffEmail: email, action: 'staff.sign_in_refused' },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => (r.details as { reason: string }).reason);
}

beforeAll(async () => {
  p = await newPlatform();
});

describe('enrolment', () => {
  it('takes a current code; a wrong one leaves the account without a factor', async () => {
    const actor = await member();
    const { secret } = await factor.startEnrolment(actor);
    expect(await failure(factor.confirmEnrolment(actor, '000000'))).toBe('INVALID_INPUT');
    expect(await factor.isEnrolled(actor.staffUserId)).toBe(false);
    const { recoveryCodes } = await factor.confirmEnrolment(actor, codeOf(secret));
    expect(recoveryCodes).toHaveLength(10);
    expect(await factor.isEnrolled(actor.staffUserId)).toBe(true);
    expect(await failure(factor.startEnrolment(actor))).toBe('INVALID_STATE_TRANSITION');
    const audit = await db().staffAuditEntry.findMany({ where: { objectId: actor.staffUserId } });
    expect(audit.map((a) => a.action)).toContain('staff.second_factor.enrol');
  });
});

describe('sign-in with a second factor', () => {
  it('opens no session before the code, one after; the same code is refused again', async () => {
    const { actor, secret } = await enrolled();
    const address = newAddress();
    const sessionsBefore = await db().staffSession.count({ where: { staffUserId: actor.staffUserId } });
    const id = await challenge(actor.email, address);
    expect(await db().staffSession.count({ where: { staffUserId: actor.staffUserId } })).toBe(sessionsBefore);
    const code = codeOf(secret, 1);
    const { sessionId } = await staff.completeSignIn(id, code, address);
    expect((await staff.actorOf(sessionId))?.staffUserId).toBe(actor.staffUserId);
    // The challenge is spent, and the code's time step too, even with a fresh challenge.
    expect(await failure(staff.completeSignIn(id, codeOf(secret, 1), address))).toBe('UNAUTHORIZED');
    const again = await challenge(actor.email, address);
    expect(await failure(staff.completeSignIn(again, code, address))).toBe('UNAUTHORIZED');
    expect(await refusals(actor.email)).toEqual(['replayed_code']);
  });

  it('accounts without a factor still sign in with the password alone', async () => {
    const actor = await member();
    const { sessionId } = await staff.signIn(actor.email, PASSWORD, newAddress());
    expect(await staff.actorOf(sessionId)).not.toBeNull();
  });

  it('wrong codes are audited and throttled like passwords', async () => {
    const { actor, secret } = await enrolled();
    const address = newAddress();
    const id = await challenge(actor.email, address);
    const results = [];
    for (let i = 0; i < PAIR.free + 1; i++) results.push(await failure(staff.completeSignIn(id, '000000', address)));
    expect(results.slice(0, PAIR.free)).toEqual(Array(PAIR.free).fill('UNAUTHORIZED'));
    expect(results[PAIR.free]).toBe('RATE_LIMITED');
    // Throttled means unchecked: even the right code waits.
    expect(await failure(staff.completeSignIn(id, codeOf(secret, 1), address))).toBe('RATE_LIMITED');
    const reasons = await refusals(actor.email);
    expect(reasons.filter((r) => r === 'wrong_code')).toHaveLength(PAIR.free);
    expect(reasons.filter((r) => r === 'throttled')).toHaveLength(2);
  });

  it('a recovery code signs in once', async () => {
    const { actor, recoveryCodes } = await enrolled();
    const address = newAddress();
    const { sessionId } = await staff.completeSignIn(
      await challenge(actor.email, address),
      recoveryCodes[0].toLowerCase(),
      address,
    );
    expect(await staff.actorOf(sessionId)).not.toBeNull();
    const again = await challenge(actor.email, address);
    expect(await failure(staff.completeSignIn(again, recoveryCodes[0], address))).toBe('UNAUTHORIZED');
    expect(await factor.recoveryCodesLeft(actor.staffUserId)).toBe(9);
  });
});

describe('expired challenges', () => {
  it('are refused, and pruned a day after they expire', async () => {
    const { actor, secret } = await enrolled();
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    const id = `StaffSignInChallenge:expired-${process.pid}-${++n}`;
    await db().staffSignInChallenge.create({
      data: { id, staffUserId: actor.staffUserId, address: '10.0.0.1', createdAt: old, expiresAt: old },
    });
    expect(await failure(staff.completeSignIn(id, codeOf(secret, 1), '10.0.0.1'))).toBe('UNAUTHORIZED');
    await pruneSignInLimits(new Date());
    expect(await db().staffSignInChallenge.count({ where: { id } })).toBe(0);
  });
});

describe('turning the factor off', () => {
  it('an admin resets another member’s factor, audited; the member signs in with the password', async () => {
    const admin = await member('admin');
    const { actor } = await enrolled();
    await factor.resetFor(admin, actor.staffUserId);
    expect(await factor.isEnrolled(actor.staffUserId)).toBe(false);
    const { sessionId } = await staff.signIn(actor.email, PASSWORD, newAddress());
    expect(await staff.actorOf(sessionId)).not.toBeNull();
    const audit = await db().staffAuditEntry.findMany({ where: { action: 'staff.second_factor.reset' } });
    expect(audit.some((a) => a.objectId === actor.staffUserId && a.staffUserId === admin.staffUserId)).toBe(true);
    const viewer = await member('viewer');
    expect(await failure(factor.resetFor(viewer, admin.staffUserId))).toBe('FORBIDDEN');
  });

  it('one’s own factor goes off only with a current code', async () => {
    const { actor, secret } = await enrolled();
    expect(await failure(factor.disableOwn(actor, '000000'))).toBe('INVALID_INPUT');
    expect(await factor.isEnrolled(actor.staffUserId)).toBe(true);
    await factor.disableOwn(actor, codeOf(secret, 1));
    expect(await factor.isEnrolled(actor.staffUserId)).toBe(false);
  });
});
