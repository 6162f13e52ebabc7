import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { answerOf, expectError, newPlatform, type Json, type TestPlatform } from '@/tests/support/api';
import { transaction, db } from '@/lib/core/db';
import { newId } from '@/lib/core/ids';
import { duplicateError } from './credentials';
import * as repo from './repository';
import { newWallet, otpLogin, signatureHeaders, signed, addOauth, nowS } from './testing/flows';
import { googleClaims, newClientKey, oidcToken, sha256Hex } from './testing/client';
import { attest, newPasskey } from './testing/passkey';

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

// Two concurrent additions that the unique indexes tell apart: one 201, the other the 4xx a
// sequential one gets (never a 500).
const integratorChallenge = () => randomBytes(32).toString('base64url');
const passkeyBody = (accountId: string, challenge = integratorChallenge(), pk = newPasskey()) => ({
  type: 'PASSKEY',
  accountId,
  nickname: 'Key',
  challenge,
  attestation: attest(pk, challenge),
});

/** Two challenges first, then both signed retries at once, so both pass the checks before either inserts. */
async function race(bodies: [unknown, unknown], key: ReturnType<typeof newClientKey>) {
  const challenges = await Promise.all(bodies.map((b) => p.api.post('/auth/credentials', b)));
  for (const ch of challenges) expect(ch.status, ch.text).toBe(202);
  const results = await Promise.all(
    bodies.map((b, i) =>
      p.api.post('/auth/credentials', b, {
        headers: signatureHeaders(challenges[i].body.payloadToSign, key, challenges[i].body.requestId),
      }),
    ),
  );
  expect(
    results.map((r) => r.status).filter((s) => s === 201),
    results.map((r) => r.text).join('\n'),
  ).toHaveLength(1);
  return results.find((r) => r.status !== 201)!;
}

const credentials = async (accountId: string) =>
  (await p.api.get('/auth/credentials', { query: { accountId } })).body.data as Json[];

it('one passkey registered by two ceremonies: PASSKEY_CREDENTIAL_ALREADY_EXISTS', async () => {
  const w = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const pk = newPasskey();
  expectError(
    await race(
      [passkeyBody(w.accountId, integratorChallenge(), pk), passkeyBody(w.accountId, integratorChallenge(), pk)],
      key,
    ),
    400,
    'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
  );
  expect((await credentials(w.accountId)).filter((c) => c.type === 'PASSKEY')).toHaveLength(1);
});

it('the same passkey request twice: whichever of its two rules is met first (same credential id, used challenge)', async () => {
  const w = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const body = passkeyBody(w.accountId);
  const loser = await race([body, body], key);
  if (loser.status === 401) {
    expectError(loser, 401, 'UNAUTHORIZED');
    expect(loser.body.details.reason).toBe('Registration challenge already used');
  } else expectError(loser, 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
  expect((await credentials(w.accountId)).filter((c) => c.type === 'PASSKEY')).toHaveLength(1);
});

it('two passkeys over one registration challenge: 401 Registration challenge already used', async () => {
  const w = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const challenge = integratorChallenge();
  const loser = await race([passkeyBody(w.accountId, challenge), passkeyBody(w.accountId, challenge)], key);
  expectError(loser, 401, 'UNAUTHORIZED');
  expect(loser.body.details.reason).toBe('Registration challenge already used');
  expect((await credentials(w.accountId)).filter((c) => c.type === 'PASSKEY')).toHaveLength(1);
});

it('the same OAuth identity twice: 400 INVALID_INPUT', async () => {
  const w = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const body = {
    type: 'OAUTH',
    accountId: w.accountId,
    oidcToken: await oidcToken(googleClaims(nowS(), { sub: 'raced' })),
  };
  expectError(await race([body, body], key), 400, 'INVALID_INPUT');
  expect((await credentials(w.accountId)).filter((c) => c.type === 'OAUTH')).toHaveLength(1);
});

it('SMS_OTP twice: SMS_OTP_CREDENTIAL_ALREADY_EXISTS', async () => {
  const w = await newWallet(p, { phoneNumber: '+14155550123' });
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const body = { type: 'SMS_OTP', accountId: w.accountId };
  expectError(await race([body, body], key), 400, 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
  expect((await credentials(w.accountId)).filter((c) => c.type === 'SMS_OTP')).toHaveLength(1);
});

it('names the rule from the index a real insert violated (the race above may go either way on a run)', async () => {
  const w = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  expect((await signed(p.api, 'POST', '/auth/credentials', passkeyBody(w.accountId), key)).res.status).toBe(201);
  await addOauth(p, w.accountId, key, 'indexed');
  const rows = await repo.activeCredentials(p.platformId, w.accountId, db());
  const of = (type: string) => rows.find((r) => r.type === type)!;
  /** The error of inserting a copy of `row` (changed by `change`), which rolls back. */
  const violation = async (row: repo.AuthMethodRow, change: Partial<repo.AuthMethodRow> = {}) => {
    const copy = { ...row, id: newId('AuthMethod'), ...change } as Parameters<typeof repo.insertCredential>[0];
    const err = await transaction((tx) => repo.insertCredential(copy, tx)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'a duplicate was inserted').not.toBeNull();
    return err;
  };
  const passkey = of('PASSKEY');
  const sameId = duplicateError(
    await violation(passkey, { registrationChallengeHash: sha256Hex('another challenge') }),
    'PASSKEY',
  );
  expect(answerOf(sameId)).toMatchObject({ status: 400, code: 'PASSKEY_CREDENTIAL_ALREADY_EXISTS' });
  const sameChallenge = duplicateError(await violation(passkey, { credentialId: 'another-credential-id' }), 'PASSKEY');
  expect(answerOf(sameChallenge)).toMatchObject({
    status: 401,
    code: 'UNAUTHORIZED',
    details: { reason: 'Registration challenge already used' },
  });
  expect(answerOf(duplicateError(await violation(of('EMAIL_OTP')), 'EMAIL_OTP'))).toMatchObject({
    status: 400,
    code: 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
  });
  expect(answerOf(duplicateError(await violation(of('OAUTH')), 'OAUTH'))).toMatchObject({
    status: 400,
    code: 'INVALID_INPUT',
  });
  // Any other error is not a duplicate; nothing was left behind.
  expect(duplicateError(new Error('connection reset'), 'OAUTH')).toBeNull();
  expect(await repo.activeCredentials(p.platformId, w.accountId, db())).toHaveLength(3);
});
