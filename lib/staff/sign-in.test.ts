import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import * as staff from './service';
import { ACCOUNT, ADDRESS, PAIR, pruneSignInLimits, QUIET_MS } from './sign-in-limits';

// Staff sign-in under attack: the limits are claimed before any password is checked, so a burst
// of guesses is checked no further than the limits allow, and the rest is refused with the wait;
// the owner keeps signing in from elsewhere; every attempt is in the audit trail with its address
// and reason. Which attempts had their password checked is read from that trail: an attempt
// refused by a limit is recorded with reason "throttled", a checked one with its outcome.
let p: TestPlatform;
let n = 0;
const PASSWORD = 'the-right-password-1';
const newEmail = () => `signin-${process.pid}-${Date.now()}-${++n}@staff.example`;
/** An address no other test uses (the limits are counted per address across the database). */
const newAddress = () => `10.${[...randomBytes(3)].join('.')}`;

async function account() {
  const email = newEmail();
  const { user } = await staff.createUser(p.platformId, { email, role: 'admin', password: PASSWORD }, db());
  return { email, userId: user.id };
}

async function attempt(email: string, password: string, address: string) {
  return staff.signIn(email, password, address).then(
    (r) => ({ ok: true as const, sessionId: r.sessionId }),
    (err: DomainError) => ({ ok: false as const, code: err.code, message: err.message, details: err.details }),
  );
}

/** The audit entries of attempts on `email`, oldest first. */
async function trail(email: string) {
  const rows = await db().staffAuditEntry.findMany({ where: { staffEmail: email }, orderBy: { createdAt: 'asc' } });
  return rows.map((r): Record<string, unknown> => ({
    action: r.action,
    objectId: r.objectId,
    ...(r.details as object),
  }));
}

/** Attempts on `email` whose password was checked (everything not refused by a limit). */
const checked = async (email: string) => (await trail(email)).filter((e) => e.reason !== 'throttled').length;

beforeAll(async () => {
  p = await newPlatform();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the limit per email and address', () => {
  it('24 concurrent wrong passwords: no more than five checked, the rest told when to try again', async () => {
    const { email } = await account();
    const from = newAddress();
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => attempt(email, `wrong-password-${i}`, from)),
    );
    const refused = results.filter((r) => !r.ok && r.code === 'RATE_LIMITED');
    expect(results.filter((r) => !r.ok && r.code === 'UNAUTHORIZED')).toHaveLength(PAIR.free);
    expect(refused).toHaveLength(24 - PAIR.free);
    for (const r of refused) {
      if (r.ok) continue;
      expect(r.message).toMatch(/^Too many sign-in attempts; try again in \d+ s$/);
      expect(r.details?.retryAfterSeconds).toBeGreaterThan(0);
      expect(r.details?.retryAfterSeconds).toBeLessThanOrEqual(PAIR.baseMs / 1000);
    }
    expect(await checked(email)).toBe(PAIR.free);
    // Refused unchecked: the right password from the throttled address is refused too.
    expect(await attempt(email, PASSWORD, from)).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(await checked(email)).toBe(PAIR.free);
  });

  it('the right password from another address signs in while one address is throttled', async () => {
    const { email } = await account();
    const guesser = newAddress();
    await Promise.all(Array.from({ length: 12 }, () => attempt(email, 'a-wrong-password', guesser)));
    expect(await attempt(email, 'a-wrong-password', guesser)).toMatchObject({ code: 'RATE_LIMITED' });
    // The owner, from an address the account never signed in from: no lock, no wait.
    const owner = await attempt(email, PASSWORD, newAddress());
    expect(owner.ok).toBe(true);
    if (owner.ok) expect((await staff.actorOf(owner.sessionId))?.email).toBe(email);
  });

  it('past the free attempts each further one waits twice as long; signing in starts the count again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { email } = await account();
    const from = newAddress();
    for (let i = 0; i < PAIR.free; i++) await attempt(email, 'a-wrong-password', from);
    const first = await attempt(email, 'a-wrong-password', from);
    expect(first).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 30 } });
    vi.setSystemTime(Date.now() + 30_000);
    expect(await attempt(email, 'a-wrong-password', from)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await attempt(email, PASSWORD, from)).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 60 },
    });
    vi.setSystemTime(Date.now() + 60_000);
    expect((await attempt(email, PASSWORD, from)).ok).toBe(true);
    // The owner's typos before were forgiven: five free attempts again.
    for (let i = 0; i < PAIR.free; i++)
      expect(await attempt(email, 'a-wrong-password', from)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await attempt(email, 'a-wrong-password', from)).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('an email that names no account is limited alike (the answers do not tell which exist)', async () => {
    const email = newEmail();
    const from = newAddress();
    const results = await Promise.all(Array.from({ length: 8 }, () => attempt(email, 'a-wrong-password', from)));
    expect(results.filter((r) => !r.ok && r.code === 'UNAUTHORIZED')).toHaveLength(PAIR.free);
    expect(results.filter((r) => !r.ok && r.code === 'RATE_LIMITED')).toHaveLength(8 - PAIR.free);
  });
});

describe('the limit per address', () => {
  it('40 emails, one try each, from one address: checking stops at the address limit', async () => {
    const from = newAddress();
    const emails = Array.from({ length: 40 }, newEmail);
    const results = [];
    for (const email of emails) results.push(await attempt(email, 'spray-password-1', from));
    expect(results.filter((r) => !r.ok && r.code === 'UNAUTHORIZED')).toHaveLength(ADDRESS.free);
    expect(results.slice(ADDRESS.free).every((r) => !r.ok && r.code === 'RATE_LIMITED')).toBe(true);
    let evaluated = 0;
    for (const email of emails) evaluated += await checked(email);
    expect(evaluated).toBe(ADDRESS.free);
    // Another address is not affected.
    const { email } = await account();
    expect((await attempt(email, PASSWORD, newAddress())).ok).toBe(true);
  });

  it('sign-ins that succeed do not count against it', async () => {
    const from = newAddress();
    const { email } = await account();
    for (let i = 0; i < ADDRESS.free + 5; i++) expect((await attempt(email, PASSWORD, from)).ok).toBe(true);
  });
});

describe('the limit per account, for addresses that never signed in to it', () => {
  it('guesses from many addresses at once: no more than its limit checked; the owner still signs in', async () => {
    const { email } = await account();
    const usual = newAddress();
    expect((await attempt(email, PASSWORD, usual)).ok).toBe(true);
    const results = await Promise.all(
      Array.from({ length: 24 }, () => attempt(email, 'distributed-guess', newAddress())),
    );
    expect(results.filter((r) => !r.ok && r.code === 'UNAUTHORIZED')).toHaveLength(ACCOUNT.free);
    expect(results.filter((r) => !r.ok && r.code === 'RATE_LIMITED')).toHaveLength(24 - ACCOUNT.free);
    // From an address it signed in from before, the owner is not held up by the strangers' limit.
    expect((await attempt(email, PASSWORD, usual)).ok).toBe(true);
    // A stranger's new address is.
    expect(await attempt(email, PASSWORD, newAddress())).toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe('the audit trail', () => {
  it('records every sign-in and refusal with the address and reason, never the password', async () => {
    const { email, userId } = await account();
    const from = newAddress();
    await attempt(email, 'secret-guess-number-1', from);
    await attempt(email, PASSWORD, from);
    const unknown = newEmail();
    await attempt(unknown, 'secret-guess-number-2', from);
    for (let i = 0; i < PAIR.free; i++) await attempt(unknown, 'secret-guess-number-3', from);
    expect(await trail(email)).toEqual([
      { action: 'staff.sign_in_refused', objectId: userId, address: from, reason: 'wrong_password' },
      { action: 'staff.sign_in', objectId: userId, address: from },
    ]);
    const refusals = await trail(unknown);
    expect(refusals.map((e) => e.reason)).toEqual([...Array(PAIR.free).fill('unknown_email'), 'throttled']);
    expect(refusals.at(-1)).toMatchObject({ limit: 'pair', retryAfterSeconds: 30, address: from });
    const rows = await db().staffAuditEntry.findMany({ where: { staffEmail: { in: [email, unknown] } } });
    expect(JSON.stringify(rows)).not.toMatch(/secret-guess|the-right-password/);
    // A password typed into the email field is not kept either.
    await attempt('secret-guess-number-4', 'x', from);
    expect(await db().staffAuditEntry.count({ where: { staffEmail: { contains: 'secret-guess' } } })).toBe(0);
  });
});

it('a limit quiet for a day counts from zero again, and housekeeping removes it', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const { email } = await account();
  const from = newAddress();
  for (let i = 0; i < PAIR.free; i++) await attempt(email, 'a-wrong-password', from);
  expect(await attempt(email, 'a-wrong-password', from)).toMatchObject({ code: 'RATE_LIMITED' });
  vi.setSystemTime(Date.now() + QUIET_MS);
  expect(await attempt(email, 'a-wrong-password', from)).toMatchObject({ code: 'UNAUTHORIZED' });
  const key = `pair:${email}|${from}`;
  expect(await db().staffSignInLimit.count({ where: { key } })).toBe(1);
  await pruneSignInLimits(new Date(Date.now() + QUIET_MS + 1000));
  expect(await db().staffSignInLimit.count({ where: { key } })).toBe(0);
});
