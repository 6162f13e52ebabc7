import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/core/db';
import { setClockOffset } from '@/lib/platform/repository';
import { freezeClock } from '@/lib/sandbox/clock';
import { developmentSender, messageSender, outboxOf } from '@/lib/notify/sender';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { switchMode } from '@/tests/support/mode';

const address = { line1: '1 Hauptstr.', city: 'Berlin', postalCode: '10115', country: 'DE' };
let seq = 0;

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform({ embeddedWallet: false });
});
afterEach(() => {
  vi.restoreAllMocks();
  messageSender.set(developmentSender);
  switchMode('sandbox');
});

async function euCustomer(extra: Record<string, unknown> = {}) {
  const n = ++seq;
  const res = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: `Euro Person ${n}`,
    region: 'DE',
    address,
    email: `eu${n}@example.com`,
    phoneNumber: `+4930123${String(n).padStart(4, '0')}`,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; email: string; phoneNumber: string; contactVerification: Record<string, string> };
}

async function advanceClock(seconds: number) {
  const row = await db().platform.findUniqueOrThrow({ where: { id: p.platformId } });
  await setClockOffset(p.platformId, row.clockOffsetMs + BigInt(seconds * 1000));
}

// The customer's codes (lib/codes: contact codes have the customer as subject).
const codesOf = (customerId: string) =>
  db().oneTimeCode.findMany({
    where: { subject: customerId, purpose: { in: ['CONTACT_EMAIL', 'CONTACT_PHONE'] } },
    orderBy: { createdAt: 'asc' },
  });

// Each test runs once per channel: the path segment, the sender's channel, the
// contactVerification key and the customer field it verifies.
const channels = [
  ['email', 'EMAIL', 'email', 'email'],
  ['phone', 'SMS', 'phone', 'phoneNumber'],
] as const;

describe.each(channels)('%s channel', (path, sender, key, field) => {
  it('sends a code, refuses a wrong one, verifies with the right one, then answers 409', async () => {
    const c = await euCustomer();
    expect(c.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const sent = await p.api.post(`/customers/${c.id}/verify-${path}`);
    expect(sent.status, sent.text).toBe(204);
    const messages = outboxOf(p.platformId, c[field]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: sender, purpose: 'CONTACT_VERIFICATION' });
    expect(messages[0].text).toContain('123456');

    // Stored only as a keyed hash, bound to the address, expiring in 10 minutes.
    const [code] = await codesOf(c.id);
    expect(code.codeHash).toMatch(/^hmac-sha256\$[0-9a-f]{64}$/);
    expect(JSON.stringify(code)).not.toContain('123456');
    expect(JSON.stringify(code)).not.toContain(c[field]);
    expect(code.expiresAt.getTime() - code.createdAt.getTime()).toBe(10 * 60_000);

    const wrong = await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '654321' });
    expectError(wrong, 400, 'INVALID_INPUT');
    expect(wrong.body.details.errors[0]).toMatchObject({ field: 'code' });
    expect(wrong.body.message).toMatch(/wrong; 4 attempt\(s\) left/);

    const ok = await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.id).toBe(c.id);
    expect(ok.body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING', [key]: 'VERIFIED' });
    expect((await p.api.get(`/customers/${c.id}`)).body.contactVerification[key]).toBe('VERIFIED');
    expect((await codesOf(c.id)).map((x) => [x.state, x.attempts])).toEqual([['USED', 1]]);

    expectError(await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' }), 409, 'CONFLICT');
    expectError(await p.api.post(`/customers/${c.id}/verify-${path}`), 409, 'CONFLICT');
  });

  it('resets on a contact change: codes for the old value no longer confirm', async () => {
    const c = await euCustomer();
    const newValue = path === 'email' ? `changed${seq}@example.com` : `+4940999${String(seq).padStart(4, '0')}`;
    // An unconfirmed code for the old value.
    expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
    const patched = await p.api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', [field]: newValue });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.contactVerification[key]).toBe('PENDING');
    const stale = await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' });
    expectError(stale, 400, 'INVALID_INPUT');
    expect(stale.body.message).toMatch(/No verification code is pending/);

    // A code for the new value works (the resend limit is per address), and is single-use:
    // after verifying and changing the value again, it cannot confirm the next one.
    expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
    expect(outboxOf(p.platformId, newValue)).toHaveLength(1);
    expect(
      (await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' })).body.contactVerification[key],
    ).toBe('VERIFIED');
    const third = path === 'email' ? `third${seq}@example.com` : `+4940888${String(seq).padStart(4, '0')}`;
    expect(
      (await p.api.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', [field]: third })).body
        .contactVerification[key],
    ).toBe('PENDING');
    expectError(
      await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' }),
      400,
      'INVALID_INPUT',
    );
    // The first code was retired when the second was sent; the second was used.
    expect((await codesOf(c.id)).map((x) => x.state)).toEqual(['SUPERSEDED', 'USED']);
  });
});

describe.each(channels)('%s channel limits', (path, _sender, key, field) => {
  it('expires codes after 10 minutes', async () => {
    const c = await euCustomer();
    expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
    await advanceClock(10 * 60 + 1);
    const res = await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.message).toMatch(/expired/);
    expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
    expect((await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' })).status).toBe(200);
    expect((await codesOf(c.id)).map((x) => x.state)).toEqual(['SUPERSEDED', 'USED']);
  });

  it('locks a code after 5 wrong attempts', async () => {
    const c = await euCustomer();
    expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
    for (let i = 1; i <= 5; i++) {
      const res = await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '000000' });
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.message).toMatch(i < 5 ? `${5 - i} attempt(s) left` : /no longer works/);
    }
    const locked = await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' });
    expectError(locked, 400, 'INVALID_INPUT');
    expect(locked.body.message).toMatch(/No verification code is pending/);
    expect((await codesOf(c.id)).map((x) => [x.state, x.attempts])).toEqual([['EXHAUSTED', 5]]);
    // Malformed codes are refused without using up an attempt.
    expectError(await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '12ab' }), 400, 'INVALID_INPUT');
    expectError(await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, {}), 400, 'INVALID_INPUT');
  });

  it('evaluates at most 5 of 30 concurrent wrong codes; then the code is dead', async () => {
    const c = await euCustomer();
    expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '654321' })),
    );
    for (const r of answers) expectError(r, 400, 'INVALID_INPUT');
    const evaluated = answers.filter((r) => /code is wrong/.test(r.body.message));
    expect(evaluated).toHaveLength(5);
    expect(answers.filter((r) => /No verification code is pending/.test(r.body.message))).toHaveLength(25);
    const late = await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' });
    expectError(late, 400, 'INVALID_INPUT');
    expect(late.body.message).toMatch(/No verification code is pending/);
    expect((await codesOf(c.id)).map((x) => [x.state, x.attempts])).toEqual([['EXHAUSTED', 5]]);
  });

  it('rate-limits resends with 409 and Retry-After, and caps sends per hour', async () => {
    // Frozen, the clock moves only when advanced: the waits it answers are exact.
    await freezeClock(p.platformId);
    try {
      await rateLimited(path, field);
    } finally {
      await freezeClock(p.platformId, false);
    }
  });
});

/** Resends wait a minute; at most 5 sends an hour (on a frozen clock: exact waits). */
async function rateLimited(path: string, field: 'email' | 'phoneNumber') {
  const c = await euCustomer();
  expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
  const again = await p.api.post(`/customers/${c.id}/verify-${path}`);
  expectError(again, 409, 'CONFLICT');
  const wait = Number(again.headers.get('retry-after'));
  expect(wait).toBe(60);
  expect(again.body.details.retryAfterSeconds).toBe(wait);
  expect(outboxOf(p.platformId, c[field])).toHaveLength(1);
  for (let i = 2; i <= 5; i++) {
    await advanceClock(61);
    expect((await p.api.post(`/customers/${c.id}/verify-${path}`)).status).toBe(204);
  }
  await advanceClock(61);
  const capped = await p.api.post(`/customers/${c.id}/verify-${path}`);
  expectError(capped, 409, 'CONFLICT');
  // The hour runs from the first send, 5 advances of 61 s ago.
  expect(Number(capped.headers.get('retry-after'))).toBe(3600 - 5 * 61);
  const states = (await codesOf(c.id)).map((x) => x.state);
  expect(states).toEqual(['SUPERSEDED', 'SUPERSEDED', 'SUPERSEDED', 'SUPERSEDED', 'ACTIVE']);
  // The latest code is the one that works.
  expect((await p.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' })).status).toBe(200);
}

describe.each(channels)('%s channel: customers that cannot verify', (path, _sender, key, field) => {
  it('answers 409 for customers whose region needs no verification and 404 for unknown ones', async () => {
    const us = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Us Person',
      region: 'US',
      email: 'us@example.com',
      phoneNumber: '+14155550100',
    });
    expect(us.body.contactVerification).toBeUndefined();
    const none = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'No Region',
      email: 'n@example.com',
      phoneNumber: '+14155550101',
    });
    for (const id of [us.body.id, none.body.id]) {
      expectError(await p.api.post(`/customers/${id}/verify-${path}`), 409, 'CONFLICT');
      expectError(await p.api.post(`/customers/${id}/verify-${path}/confirm`, { code: '123456' }), 409, 'CONFLICT');
    }
    const missing = await euCustomer({ [field]: undefined });
    expect(missing.contactVerification).toEqual({ [key === 'email' ? 'phone' : 'email']: 'PENDING' });
    expectError(await p.api.post(`/customers/${missing.id}/verify-${path}`), 409, 'CONFLICT');

    expectError(
      await p.api.post(`/customers/Customer:00000000-0000-0000-0000-000000000000/verify-${path}`),
      404,
      'USER_NOT_FOUND',
    );
    expectError(
      await p.api.post(`/customers/nonsense/verify-${path}/confirm`, { code: '123456' }),
      404,
      'USER_NOT_FOUND',
    );
    const c = await euCustomer();
    const other = await newPlatform();
    expectError(await other.api.post(`/customers/${c.id}/verify-${path}`), 404, 'USER_NOT_FOUND');
    expectError(
      await other.api.post(`/customers/${c.id}/verify-${path}/confirm`, { code: '123456' }),
      404,
      'USER_NOT_FOUND',
    );
    expect((await p.api.delete(`/customers/${c.id}`)).status).toBe(200);
    expectError(await p.api.post(`/customers/${c.id}/verify-${path}`), 404, 'USER_NOT_FOUND');
  });
});

it('uses a random code outside sandbox and never logs it', async () => {
  switchMode('production');
  const logged: string[] = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
  const c = await euCustomer();
  expect((await p.api.post(`/customers/${c.id}/verify-email`)).status).toBe(204);
  const text = outboxOf(p.platformId, c.email).at(-1)!.text;
  const code = /\b(\d{6})\b/.exec(text)![1];
  const [row] = await codesOf(c.id);
  expect(row.codeHash).not.toContain(code);
  if (code !== '123456')
    expectError(await p.api.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' }), 400, 'INVALID_INPUT');
  const ok = await p.api.post(`/customers/${c.id}/verify-email/confirm`, { code });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body.contactVerification.email).toBe('VERIFIED');
  expect(logged.filter((l) => l.includes(code))).toEqual([]);
});

it('delivers only after the code is committed, and drops an undeliverable code', async () => {
  const c = await euCustomer();
  const seenAtDelivery: number[] = [];
  messageSender.set({
    async send() {
      // Runs outside the transaction: the committed code is visible to a plain query.
      seenAtDelivery.push(await db().oneTimeCode.count({ where: { subject: c.id, state: 'ACTIVE' } }));
      return { outcome: 'ACCEPTED' as const };
    },
  });
  expect((await p.api.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
  expect(seenAtDelivery).toEqual([1]);

  const d = await euCustomer();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  messageSender.set({
    async send() {
      throw new Error('SMS provider unavailable');
    },
  });
  expectError(await p.api.post(`/customers/${d.id}/verify-phone`), 500, 'INTERNAL_ERROR');
  expect(await codesOf(d.id)).toEqual([]);
  messageSender.set(developmentSender);
  // Nothing was delivered, so nothing counts against the resend limit.
  expect((await p.api.post(`/customers/${d.id}/verify-phone`)).status).toBe(204);
  expect((await p.api.post(`/customers/${d.id}/verify-phone/confirm`, { code: '123456' })).status).toBe(200);
});

it('needs MANAGE', async () => {
  const c = await euCustomer();
  const viewer = await p.withPermissions('VIEW');
  for (const path of ['verify-email', 'verify-phone']) {
    expectError(await viewer.post(`/customers/${c.id}/${path}`), 403, 'FORBIDDEN');
    expectError(await viewer.post(`/customers/${c.id}/${path}/confirm`, { code: '123456' }), 403, 'FORBIDDEN');
    expectError(
      await p.api.post(`/customers/${c.id}/${path}`, undefined, { authorization: null }),
      401,
      'UNAUTHORIZED',
    );
  }
  expect(outboxOf(p.platformId, c.email)).toEqual([]);
});
