import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { outboxOf } from '@/lib/notify/sender';
import { setClockOffset } from '@/lib/platform/repository';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { SAMPLES } from './testing';
import { switchMode } from '@/tests/support/mode';

const eur = SAMPLES.find((s) => s.accountType === 'EUR_ACCOUNT')!;

// Beneficiary trust for customers under Strong Customer Authentication (SCA).
let p: TestPlatform;
let euCustomer: string;
let usCustomer: string;
let n = 200; // clear of the sandbox suffixes 102-107
const account = async (customerId: string) => {
  const res = await p.api.post('/customers/external-accounts', {
    customerId,
    currency: 'EUR',
    accountInfo: eur.info(String(n++)),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const path = (id: string, step: string) => `/customers/external-accounts/${id}/${step}`;

beforeAll(async () => {
  p = await newPlatform();
  euCustomer = (
    await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Eu Customer',
      region: 'DE',
      phoneNumber: '+4915112345678',
    })
  ).body.id;
  usCustomer = (
    await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Us Customer',
      region: 'US',
      phoneNumber: '+14155550100',
    })
  ).body.id;
});

it('trusts and untrusts with an SMS_OTP challenge; a trusted beneficiary cannot be deleted', async () => {
  const id = await account(euCustomer);
  const start = await p.api.post(path(id, 'trust'));
  expect(start.status, start.text).toBe(200);
  const ch = start.body.scaChallenge;
  expect(ch).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'TRUST_BENEFICIARY' });
  expect(ch.id).toMatch(/^Challenge:/);
  expect(new Date(ch.expiresAt).getTime()).toBeGreaterThan(Date.now());

  expectError(
    await p.api.post(path(id, 'trust/confirm'), { challengeId: ch.id, code: '999999' }),
    400,
    'INVALID_INPUT',
  );
  const wrongId = await p.api.post(path(id, 'trust/confirm'), {
    challengeId: 'Challenge:00000000-0000-0000-0000-000000000000',
    code: '000000',
  });
  expectError(wrongId, 400, 'INVALID_INPUT');
  expect(wrongId.body.details.errors[0].field).toBe('challengeId');
  const ok = await p.api.post(path(id, 'trust/confirm'), { challengeId: ch.id, code: '000000' });
  expect(ok.status, ok.text).toBe(200);
  expect(ok.body).toEqual({ trusted: true });
  // Spent: a second confirm has nothing to confirm.
  expectError(await p.api.post(path(id, 'trust/confirm'), { code: '000000' }), 400, 'INVALID_INPUT');
  expectError(await p.api.post(path(id, 'trust')), 409, 'CONFLICT');

  expectError(await p.api.delete(`/customers/external-accounts/${id}`), 409, 'BENEFICIARY_TRUSTED');
  expect((await p.api.get(`/customers/external-accounts/${id}`)).status).toBe(200);

  const un = await p.api.post(path(id, 'untrust'));
  expect(un.status, un.text).toBe(200);
  expect(un.body.scaChallenge.purpose).toBe('UNTRUST_BENEFICIARY');
  // A trust confirm does not complete an untrust challenge.
  expectError(await p.api.post(path(id, 'trust/confirm'), { code: '000000' }), 400, 'INVALID_INPUT');
  const unOk = await p.api.post(path(id, 'untrust/confirm'), {
    challengeId: un.body.scaChallenge.id,
    code: '000000',
  });
  expect(unOk.body).toEqual({ trusted: false });
  expectError(await p.api.post(path(id, 'untrust')), 409, 'CONFLICT');
  expect((await p.api.delete(`/customers/external-accounts/${id}`)).status).toBe(204);
});

it("accepts the reference's sandbox code 123456 and confirms without challengeId", async () => {
  const id = await account(euCustomer);
  await p.api.post(path(id, 'trust'));
  expect((await p.api.post(path(id, 'trust/confirm'), { code: '123456' })).body).toEqual({ trusted: true });
});

it('answers 409 for a customer outside SCA regions, on every step', async () => {
  const id = await account(usCustomer);
  for (const [step, body] of [
    ['trust', undefined],
    ['trust/confirm', { code: '000000' }],
    ['untrust', undefined],
    ['untrust/confirm', { code: '000000' }],
  ] as const) {
    expectError(await p.api.post(path(id, step), body), 409, 'CONFLICT');
  }
  expect((await p.api.delete(`/customers/external-accounts/${id}`)).status).toBe(204);
});

it('answers 404 for unknown, deleted and platform accounts', async () => {
  expectError(
    await p.api.post(path('ExternalAccount:00000000-0000-0000-0000-000000000000', 'trust')),
    404,
    'REFERENCE_NOT_FOUND',
  );
  const plat = await p.api.post('/platform/external-accounts', { currency: 'EUR', accountInfo: eur.info('090') });
  expectError(await p.api.post(path(plat.body.id, 'trust')), 404, 'REFERENCE_NOT_FOUND');
  const id = await account(euCustomer);
  await p.api.delete(`/customers/external-accounts/${id}`);
  expectError(await p.api.post(path(id, 'trust')), 404, 'REFERENCE_NOT_FOUND');
});

it('validates the confirm body', async () => {
  const id = await account(euCustomer);
  await p.api.post(path(id, 'trust'));
  const empty = await p.api.post(path(id, 'trust/confirm'), {});
  expectError(empty, 400, 'INVALID_INPUT');
  expect(empty.body.details.errors[0].field).toBe('code');
  const passkey = await p.api.post(path(id, 'trust/confirm'), {
    passkeyAssertion: { id: 'x' },
    origin: 'https://app.example',
  });
  expectError(passkey, 400, 'INVALID_INPUT');
  expect(passkey.body.details.errors[0].field).toBe('passkeyAssertion');
  const fresh = await account(euCustomer);
  expectError(await p.api.post(path(fresh, 'trust/confirm'), { code: '000000' }), 400, 'INVALID_INPUT');
});

it('burns a challenge after 5 wrong codes; a new start replaces the old challenge', async () => {
  const id = await account(euCustomer);
  const first = (await p.api.post(path(id, 'trust'))).body.scaChallenge.id;
  const second = (await p.api.post(path(id, 'trust'))).body.scaChallenge.id;
  expect(second).not.toBe(first);
  expectError(
    await p.api.post(path(id, 'trust/confirm'), { challengeId: first, code: '000000' }),
    400,
    'INVALID_INPUT',
  );
  for (let i = 0; i < 5; i++)
    expectError(await p.api.post(path(id, 'trust/confirm'), { code: '111111' }), 400, 'INVALID_INPUT');
  const burnt = await p.api.post(path(id, 'trust/confirm'), { code: '000000' });
  expectError(burnt, 400, 'INVALID_INPUT');
  expect(burnt.body.message).toContain('No trust challenge is outstanding');
  await p.api.post(path(id, 'trust'));
  expect((await p.api.post(path(id, 'trust/confirm'), { code: '000000' })).body).toEqual({ trusted: true });
});

it('evaluates at most 5 of 30 concurrent wrong codes; then the challenge is dead', async () => {
  const id = await account(euCustomer);
  const ch = (await p.api.post(path(id, 'trust'))).body.scaChallenge;
  const answers = await Promise.all(
    Array.from({ length: 30 }, () => p.api.post(path(id, 'trust/confirm'), { challengeId: ch.id, code: '654321' })),
  );
  for (const r of answers) expectError(r, 400, 'INVALID_INPUT');
  // Compared codes are answered on the code; the rest found the challenge already dead.
  const evaluated = answers.filter((r) => r.body.details.errors[0].field === 'code');
  expect(evaluated.length).toBeLessThanOrEqual(5);
  const code = await db().oneTimeCode.findFirstOrThrow({ where: { binding: ch.id } });
  expect(code).toMatchObject({ attempts: 5, state: 'EXHAUSTED' });
  const late = await p.api.post(path(id, 'trust/confirm'), { challengeId: ch.id, code: '123456' });
  expectError(late, 400, 'INVALID_INPUT');
  expect((await p.api.get(`/customers/external-accounts/${id}`)).status).toBe(200);
  expectError(await p.api.post(path(id, 'untrust')), 409, 'CONFLICT'); // never became trusted
});

it('refuses an expired challenge', async () => {
  const q = await newPlatform();
  const owner = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Slow', region: 'AT' })).body
    .id;
  const id = (
    await q.api.post('/customers/external-accounts', {
      customerId: owner,
      currency: 'EUR',
      accountInfo: eur.info('080'),
    })
  ).body.id;
  await q.api.post(path(id, 'trust'));
  await setClockOffset(q.platformId, 6n * 60_000n);
  const late = await q.api.post(path(id, 'trust/confirm'), { code: '000000' });
  expectError(late, 400, 'INVALID_INPUT');
  expect(late.body.message).toContain('expired');
});

describe('outside the sandbox', () => {
  afterEach(() => {
    switchMode('sandbox');
  });

  it('sends a random one-time code by SMS after commit and stores only its hash', async () => {
    const id = await account(euCustomer);
    switchMode('production');
    const start = await p.api.post(path(id, 'trust'));
    expect(start.status, start.text).toBe(200);
    const sms = outboxOf(p.platformId, '+4915112345678').filter((m) => m.purpose === 'SCA_TRUST_BENEFICIARY');
    expect(sms).toHaveLength(1);
    expect(sms[0].channel).toBe('SMS');
    const code = /(\d{6})/.exec(sms[0].text)![1];
    // The challenge's code (lib/codes), stored only as a keyed hash.
    const row = await db().oneTimeCode.findFirst({ where: { binding: start.body.scaChallenge.id } });
    expect(row?.codeHash).toMatch(/^hmac-sha256\$[0-9a-f]{64}$/);
    expect(row?.codeHash).not.toContain(code);
    if (code !== '000000')
      expectError(await p.api.post(path(id, 'trust/confirm'), { code: '000000' }), 400, 'INVALID_INPUT');
    expect((await p.api.post(path(id, 'trust/confirm'), { code })).body).toEqual({ trusted: true });
  });

  it("needs the customer's phone number", async () => {
    const noPhone = (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'No Phone', region: 'PT' }))
      .body.id;
    const id = await account(noPhone);
    switchMode('production');
    expectError(await p.api.post(path(id, 'trust')), 400, 'MISSING_MANDATORY_USER_INFO');
  });
});
