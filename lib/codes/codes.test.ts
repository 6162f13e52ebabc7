import { afterEach, expect, it } from 'vitest';
import { db, transaction } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { newPlatform } from '@/tests/support/api';
import * as codes from './service';
import { switchMode } from '@/tests/support/mode';

// The one-time code module itself, against the database: attempts counted atomically, re-issue
// throttled, sandbox and real codes, bindings. The mechanisms' own tests cover them over HTTP.
const purpose = (over: Partial<codes.CodePurpose> = {}): codes.CodePurpose => ({
  name: `TEST_${Math.random().toString(36).slice(2, 8)}`,
  ttlSeconds: 600,
  maxAttempts: 5,
  sandbox: { code: '123456' },
  ...over,
});
const subject = () => `Subject:${Math.random().toString(36).slice(2)}`;

afterEach(() => {
  switchMode('sandbox');
});

it('evaluates at most maxAttempts wrong codes however many arrive at once; then the code is dead', async () => {
  const { platformId } = await newPlatform();
  const p = purpose();
  const s = subject();
  await transaction((tx) => codes.issue(tx, p, { platformId, subject: s }));
  const results = await Promise.all(
    Array.from({ length: 30 }, () => codes.verify(p, { subject: s, code: '000000' }, db())),
  );
  const evaluated = results.filter((r) => !r.ok && r.reason === 'WRONG');
  expect(evaluated).toHaveLength(5);
  expect(results.filter((r) => !r.ok && r.reason === 'EXHAUSTED')).toHaveLength(25);
  expect(evaluated.map((r) => (r.ok ? -1 : r.reason === 'WRONG' ? r.attemptsLeft : -1)).sort()).toEqual([
    0, 1, 2, 3, 4,
  ]);
  expect(await codes.verify(p, { subject: s, code: '123456' }, db())).toMatchObject({ ok: false, reason: 'EXHAUSTED' });
  const row = await db().oneTimeCode.findFirstOrThrow({ where: { purpose: p.name, subject: s } });
  expect(row).toMatchObject({ attempts: 5, state: 'EXHAUSTED' });
});

it('accepts the right code once, inside the cap, and counts only wrong ones', async () => {
  const { platformId } = await newPlatform();
  const p = purpose();
  const s = subject();
  await transaction((tx) => codes.issue(tx, p, { platformId, subject: s }));
  for (let i = 0; i < 4; i++) await codes.verify(p, { subject: s, code: '999999' }, db());
  // The fifth try, right: inside the cap.
  expect(await codes.verify(p, { subject: s, code: '123456' }, db())).toMatchObject({ ok: true });
  expect(await codes.verify(p, { subject: s, code: '123456' }, db())).toEqual({ ok: false, reason: 'NONE' });
  const row = await db().oneTimeCode.findFirstOrThrow({ where: { purpose: p.name, subject: s } });
  expect(row).toMatchObject({ attempts: 4, state: 'USED' });
  expect(row.codeHash).toMatch(/^hmac-sha256\$[0-9a-f]{64}$/);
});

it('binds a code: another binding, an expired code, a superseded one and an unknown subject are told apart', async () => {
  const { platformId } = await newPlatform();
  const p = purpose({ ttlSeconds: 1 });
  const s = subject();
  await transaction((tx) => codes.issue(tx, p, { platformId, subject: s, binding: 'a' }));
  expect(await codes.verify(p, { subject: s, binding: 'b', code: '123456' }, db())).toEqual({
    ok: false,
    reason: 'NONE',
  });
  expect(await codes.verify(p, { subject: subject(), code: '123456' }, db())).toEqual({ ok: false, reason: 'NONE' });
  await db().oneTimeCode.updateMany({ where: { subject: s }, data: { expiresAt: new Date(Date.now() - 1000) } });
  expect(await codes.verify(p, { subject: s, binding: 'a', code: '123456' }, db())).toEqual({
    ok: false,
    reason: 'EXPIRED',
  });
  await transaction((tx) => codes.issue(tx, p, { platformId, subject: s, binding: 'c' }));
  expect(
    (await db().oneTimeCode.findMany({ where: { subject: s }, orderBy: { createdAt: 'asc' } })).map((r) => r.state),
  ).toEqual(['SUPERSEDED', 'ACTIVE']);
  expect(await codes.verify(p, { subject: s, binding: 'c', code: null }, db())).toEqual({
    ok: false,
    reason: 'WRONG',
    attemptsLeft: 4,
  });
});

it('throttles re-issue with RATE_LIMITED and Retry-After, per subject or per binding, and per hour', async () => {
  const { platformId } = await newPlatform();
  const p = purpose({ resend: { afterSeconds: 30, maxPerHour: 2, perBinding: true } });
  const s = subject();
  await transaction((tx) => codes.issue(tx, p, { platformId, subject: s, binding: 'x' }));
  const again = await transaction((tx) => codes.issue(tx, p, { platformId, subject: s, binding: 'x' })).catch((e) => e);
  expect(again).toBeInstanceOf(DomainError);
  expect(again.code).toBe('RATE_LIMITED');
  const wait = again.facts.retryAfterSeconds;
  expect(wait).toBeGreaterThan(25);
  expect(wait).toBeLessThanOrEqual(30);
  expect(again.details).toEqual({ retryAfterSeconds: wait });
  // Another binding (an address the last code did not go to) is not held back by the spacing...
  await transaction((tx) => codes.issue(tx, p, { platformId, subject: s, binding: 'y' }));
  // ...but the hourly cap counts every code of the subject.
  const capped = await transaction((tx) => codes.issue(tx, p, { platformId, subject: s, binding: 'z' })).catch(
    (e) => e,
  );
  expect(capped.code).toBe('RATE_LIMITED');
  expect(capped.facts.retryAfterSeconds).toBeGreaterThan(3500);
});

it('issues the sandbox code (and its documented aliases) in sandbox, random codes outside', async () => {
  const { platformId } = await newPlatform();
  const p = purpose({ sandbox: { code: '123456', alsoAccepted: ['000000'] } });
  const s = subject();
  const sandboxed = await transaction((tx) => codes.issue(tx, p, { platformId, subject: s }));
  expect(sandboxed.code).toBe('123456');
  expect(await codes.verify(p, { subject: s, code: '000000' }, db())).toMatchObject({ ok: true });

  switchMode('production');
  const t = subject();
  const real = await transaction((tx) => codes.issue(tx, p, { platformId, subject: t, format: { length: 8 } }));
  expect(real.code).toMatch(/^\d{8}$/);
  if (real.code !== '12345600')
    expect(await codes.verify(p, { subject: t, code: '123456' }, db())).toMatchObject({ ok: false });
  if (real.code !== '00000000')
    expect(await codes.verify(p, { subject: t, code: '000000' }, db())).toMatchObject({ ok: false });
  expect(await codes.verify(p, { subject: t, code: real.code }, db())).toMatchObject({ ok: true });

  const alnum = purpose({ normalize: (c) => c.trim().toUpperCase() });
  const u = subject();
  const mixed = await transaction((tx) =>
    codes.issue(tx, alnum, { platformId, subject: u, format: { length: 10, alphanumeric: true } }),
  );
  expect(mixed.code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
  expect(await codes.verify(alnum, { subject: u, code: ` ${mixed.code.toLowerCase()} ` }, db())).toMatchObject({
    ok: true,
  });
});
