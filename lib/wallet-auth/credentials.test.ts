import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, expectError, newPlatform, type Json, type TestPlatform } from '@/tests/support/api';
import { withStrictRequests } from '@/tests/support/request-mode';
import { transaction } from '@/lib/core/db';
import { newId } from '@/lib/core/ids';
import { duplicateError } from './credentials';
import * as repo from './repository';
import { advance, newWallet, otpLogin, signatureHeaders, signed } from './testing/flows';
import { googleClaims, newClientKey, oidcToken, sha256Hex } from './testing/client';
import { attest, newPasskey } from './testing/passkey';

// The rules for credentials (specification, "Rules for credentials") over HTTP.
const nowS = () => Math.floor(Date.now() / 1000);

async function addOauth(p: TestPlatform, accountId: string, key: Parameters<typeof signed>[4], sub = 'sub-1') {
  const { res } = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { type: 'OAUTH', accountId, oidcToken: await oidcToken(googleClaims(nowS(), { sub })) },
    key,
  );
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function oauthLogin(p: TestPlatform, credentialId: string, sub = 'sub-1') {
  const key = newClientKey();
  const res = await p.api.post(`/auth/credentials/${credentialId}/verify`, {
    type: 'OAUTH',
    oidcToken: await oidcToken(googleClaims(nowS(), { sub, nonce: sha256Hex(key.publicKey) })),
    clientPublicKey: key.publicKey,
  });
  expect(res.status, res.text).toBe(200);
  return { session: res.body, key };
}

describe('credential rules', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('rule 2: the only credential cannot be revoked (400); two crossed revocations cannot leave none', async () => {
    const w = await newWallet(p);
    expectError(await p.api.delete(`/auth/credentials/${w.emailOtpId}`), 400, 'INVALID_INPUT');
    const { key } = await otpLogin(p.api, w.emailOtpId);
    const oauthId = await addOauth(p, w.accountId, key);
    const { key: oauthKey } = await oauthLogin(p, oauthId);
    // Each credential revoked with the other's session, at the same time: one wins.
    const e = await p.api.delete(`/auth/credentials/${w.emailOtpId}`);
    const o = await p.api.delete(`/auth/credentials/${oauthId}`);
    const [re, ro] = await Promise.all([
      p.api.delete(`/auth/credentials/${w.emailOtpId}`, {
        headers: signatureHeaders(e.body.payloadToSign, oauthKey, e.body.requestId),
      }),
      p.api.delete(`/auth/credentials/${oauthId}`, {
        headers: signatureHeaders(o.body.payloadToSign, key, o.body.requestId),
      }),
    ]);
    expect([re.status, ro.status].filter((s) => s === 204)).toHaveLength(1);
    const loser = re.status === 204 ? ro : re;
    expect([400, 401]).toContain(loser.status);
    const left = await p.api.get('/auth/credentials', { query: { accountId: w.accountId } });
    expect(left.body.data).toHaveLength(1);
    expectError(await p.api.delete(`/auth/credentials/${left.body.data[0].id}`), 400, 'INVALID_INPUT');
  });

  it("rule 1: revoking needs a session of another credential; revocation ends the credential's sessions", async () => {
    const w = await newWallet(p);
    const { key: emailKey, session: emailSession } = await otpLogin(p.api, w.emailOtpId);
    const oauthId = await addOauth(p, w.accountId, emailKey);
    const { key: oauthKey } = await oauthLogin(p, oauthId);

    const challenge = await p.api.delete(`/auth/credentials/${w.emailOtpId}`);
    expect(challenge.status).toBe(202);
    expect(challenge.body.type).toBe('EMAIL_OTP');
    // Signed with a session of the credential being revoked: refused.
    const self = await p.api.delete(`/auth/credentials/${w.emailOtpId}`, {
      headers: signatureHeaders(challenge.body.payloadToSign, emailKey, challenge.body.requestId),
    });
    expectError(self, 401, 'WALLET_SIGNATURE_INVALID');
    expect(self.body.details.reason).toMatch(/different credential/);
    // Signed with the OAUTH session: revoked.
    const ok = await p.api.delete(`/auth/credentials/${w.emailOtpId}`, {
      headers: signatureHeaders(challenge.body.payloadToSign, oauthKey, challenge.body.requestId),
    });
    expect(ok.status, ok.text).toBe(204);

    const creds = await p.api.get('/auth/credentials', { query: { accountId: w.accountId } });
    expect(creds.body.data.map((c: { id: string }) => c.id)).toEqual([oauthId]);
    const sessions = await p.api.get('/auth/sessions', { query: { accountId: w.accountId } });
    expect(sessions.body.data.map((s: { id: string }) => s.id)).not.toContain(emailSession.id);
    expect(sessions.body.data.every((s: { type: string }) => s.type === 'OAUTH')).toBe(true);
    // A session of the revoked credential signs nothing any more.
    expectError(
      (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, emailKey)).res,
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(await p.api.delete(`/auth/credentials/${w.emailOtpId}`), 404, 'REFERENCE_NOT_FOUND');
    expectError(await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`), 404, 'REFERENCE_NOT_FOUND');

    // EMAIL_OTP can be added back once removed; its registration sends the first code.
    const back = await signed(
      p.api,
      'POST',
      '/auth/credentials',
      { type: 'EMAIL_OTP', accountId: w.accountId },
      oauthKey,
    );
    expect(back.challenge.body.type).toBe('EMAIL_OTP');
    expect(back.res.status, back.res.text).toBe(201);
    expect(back.res.body).toMatchObject({ type: 'EMAIL_OTP', nickname: w.email });
    await otpLogin(p.api, back.res.body.id, { targetBundle: back.res.body.otpEncryptionTargetBundle });
  });

  it("refuses another account's session, and a session that expired", async () => {
    // Its own platform: the test moves the platform clock.
    const p = await newPlatform();
    const a = await newWallet(p);
    const b = await newWallet(p);
    const { key: aKey } = await otpLogin(p.api, a.emailOtpId);
    const { key: bKey } = await otpLogin(p.api, b.emailOtpId);
    const foreign = await signed(
      p.api,
      'POST',
      '/auth/credentials',
      { type: 'OAUTH', accountId: a.accountId, oidcToken: await oidcToken(googleClaims(nowS())) },
      bKey,
    );
    expectError(foreign.res, 401, 'WALLET_SIGNATURE_INVALID');
    expect(foreign.res.body.details.reason).toBe('The signing key is not an active session of this account');
    // Sessions last 15 minutes on the platform clock.
    await advance(p, 15 * 60 + 1);
    const expired = await signed(p.api, 'PATCH', `/internal-accounts/${a.accountId}`, { privateEnabled: true }, aKey);
    expectError(expired.res, 401, 'WALLET_SIGNATURE_INVALID');
    expect((await p.api.get('/auth/sessions', { query: { accountId: a.accountId } })).body.data).toEqual([]);
  });

  it('binds the retry to the exact request: another body, path or method is WALLET_SIGNATURE_BODY_MISMATCH', async () => {
    const w = await newWallet(p);
    const other = await newWallet(p);
    const { key } = await otpLogin(p.api, w.emailOtpId);
    const body = {
      type: 'OAUTH',
      accountId: w.accountId,
      oidcToken: await oidcToken(googleClaims(nowS(), { sub: 'bound' })),
    };
    const ch = await p.api.post('/auth/credentials', body);
    const headers = signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId);
    const swapped = await p.api.post(
      '/auth/credentials',
      { ...body, oidcToken: await oidcToken(googleClaims(nowS(), { sub: 'attacker' })) },
      { headers },
    );
    expectError(swapped, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
    // In strict mode a field the operation does not know is refused before any signature is considered.
    const extra = await withStrictRequests(() => p.api.post('/auth/credentials', { ...body, extra: 1 }, { headers }));
    expectError(extra, 400, 'INVALID_INPUT');
    expect(extra.body.details.errors).toEqual([{ field: 'extra', message: 'is not a field of this operation' }]);
    // Read leniently (the default) it is ignored, but the signature covers the exact body sent.
    expectError(
      await p.api.post('/auth/credentials', { ...body, extra: 1 }, { headers }),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    expectError(
      await p.api.patch(`/internal-accounts/${w.accountId}`, { privateEnabled: true }, { headers }),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    expectError(
      await p.api.post('/auth/credentials', { ...body, accountId: other.accountId }, { headers }),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    // The same content re-serialized (other key order) is the same request.
    const reordered = { oidcToken: body.oidcToken, accountId: body.accountId, type: body.type };
    const ok = await p.api.post('/auth/credentials', reordered, { headers });
    expect(ok.status, ok.text).toBe(201);
  });

  it('lists credentials per account (empty for an unknown one; 400 for a malformed id) and needs VIEW / MANAGE', async () => {
    const w = await newWallet(p);
    expect(
      (
        await p.api.get('/auth/credentials', {
          query: { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' },
        })
      ).body,
    ).toEqual({ data: [] });
    expectError(await p.api.get('/auth/credentials', { query: { accountId: 'nope' } }), 400, 'INVALID_INPUT');
    expectError(await p.api.get('/auth/credentials'), 400, 'INVALID_INPUT');
    expectError(await p.api.get('/auth/sessions', { query: { accountId: 'nope' } }), 400, 'INVALID_INPUT');
    const viewer = await p.withPermissions('VIEW');
    expect((await viewer.get('/auth/credentials', { query: { accountId: w.accountId } })).status).toBe(200);
    expect((await viewer.get('/auth/sessions', { query: { accountId: w.accountId } })).status).toBe(200);
    expectError(
      await viewer.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: w.accountId }),
      403,
      'FORBIDDEN',
    );
    expectError(await viewer.post(`/auth/credentials/${w.emailOtpId}/challenge`), 403, 'FORBIDDEN');
    expectError(await viewer.delete(`/auth/credentials/${w.emailOtpId}`), 403, 'FORBIDDEN');
    // Another platform sees none of it.
    const q = await newPlatform();
    expect((await q.api.get('/auth/credentials', { query: { accountId: w.accountId } })).body).toEqual({ data: [] });
    expectError(await q.api.post(`/auth/credentials/${w.emailOtpId}/challenge`), 404, 'REFERENCE_NOT_FOUND');
  });

  it('adds credentials to embedded wallets only: unknown account 404, another account type 400', async () => {
    const c = await p.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'No Wallet',
      currencies: ['USD'],
    });
    const fiat = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body.data[0];
    expectError(await p.api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: fiat.id }), 400, 'INVALID_INPUT');
    expectError(
      await p.api.post('/auth/credentials', {
        type: 'EMAIL_OTP',
        accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000',
      }),
      404,
      'REFERENCE_NOT_FOUND',
    );
    expectError(await p.api.post('/auth/credentials', { type: 'TOTP', accountId: fiat.id }), 400, 'INVALID_INPUT');
  });

  describe('two concurrent additions that the unique indexes tell apart: one 201, the other the 4xx a sequential one gets (never a 500)', () => {
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
      const rows = await repo.activeCredentials(p.platformId, w.accountId);
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
      const sameChallenge = duplicateError(
        await violation(passkey, { credentialId: 'another-credential-id' }),
        'PASSKEY',
      );
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
      expect(await repo.activeCredentials(p.platformId, w.accountId)).toHaveLength(3);
    });
  });
});
