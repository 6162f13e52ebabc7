import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, newWallet, otpLogin, signed } from './testing/flows';
import { clientKeyFromSecret, newClientKey, openSessionKeyBundle, type ClientKey } from './testing/client';
import { assert, attest, newPasskey, type Passkey } from './testing/passkey';
import { switchMode } from '@/tests/support/mode';

// PASSKEY credentials with the real WebAuthn ceremony, driven by a software authenticator
// (P-256 key, CBOR attestation object with 'none' attestation, authenticator data with flags and
// counter, clientDataJSON carrying the challenge).
const integratorChallenge = () => randomBytes(32).toString('base64url');

let p: TestPlatform;
let w: Awaited<ReturnType<typeof newWallet>>;
let sessionKey: ClientKey;
let pk: Passkey;
let passkeyId: string;
beforeAll(async () => {
  p = await newPlatform();
  w = await newWallet(p);
  sessionKey = (await otpLogin(p.api, w.emailOtpId)).key;
});
afterEach(() => {
  switchMode('sandbox');
});

const register = (passkey: Passkey, overrides: Record<string, unknown> = {}, challenge = integratorChallenge()) => ({
  type: 'PASSKEY',
  accountId: w.accountId,
  nickname: 'iPhone Face-ID',
  challenge,
  attestation: attest(passkey, challenge),
  ...overrides,
});

it('rule 8: registers (signed retry with an existing session), then /challenge with clientPublicKey, then /verify', async () => {
  pk = newPasskey();
  const body = register(pk);
  const { challenge, res } = await signed(p.api, 'POST', '/auth/credentials', body, sessionKey);
  expect(challenge.body.type).toBe('PASSKEY');
  expect(JSON.parse(challenge.body.payloadToSign)).toMatchObject({ type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2' });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({
    type: 'PASSKEY',
    nickname: 'iPhone Face-ID',
    credentialId: Buffer.from(pk.credentialId).toString('base64url'),
  });
  passkeyId = res.body.id;

  const client = newClientKey();
  const ch = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, { clientPublicKey: client.publicKey });
  expect(ch.status, ch.text).toBe(200);
  expect(ch.body).toMatchObject({
    id: passkeyId,
    type: 'PASSKEY',
    credentialId: res.body.credentialId,
    requestId: expect.stringMatching(/^Request:/),
  });
  expect(ch.body.challenge).toMatch(/^[0-9a-f]{64}$/);

  const assertion = assert(pk, ch.body.challenge);
  const v = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion },
    { headers: { 'Request-Id': ch.body.requestId } },
  );
  expect(v.status, v.text).toBe(200);
  expect(v.body).toMatchObject({ type: 'PASSKEY', nickname: 'iPhone Face-ID', accountId: w.accountId });
  expect(v.body.encryptedSessionSigningKey).toBeUndefined();
  // The client's key (bound into the challenge) is the session key.
  expect(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, client)).res.status,
  ).toBe(200);
  // The Request-Id was single use.
  const replay = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion: assert(pk, ch.body.challenge) },
    { headers: { 'Request-Id': ch.body.requestId } },
  );
  expectError(replay, 401, 'UNAUTHORIZED');
  expect(replay.body.details.reason).toBe('Request-Id already used');
});

it('seals a fresh session key to an uncompressed clientPublicKey (legacy flow)', async () => {
  const client = newClientKey();
  const ch = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {
    clientPublicKey: client.publicKeyUncompressed,
  });
  const v = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion: assert(pk, ch.body.challenge) },
    { headers: { 'Request-Id': ch.body.requestId } },
  );
  expect(v.status, v.text).toBe(200);
  const key = clientKeyFromSecret(await openSessionKeyBundle(v.body.encryptedSessionSigningKey, client));
  expect(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: false }, key)).res.status,
  ).toBe(200);
});

it.each([
  ['another origin', (c: string) => assert(pk, c, { origin: 'https://evil.example' }), /origin/],
  ['another RP ID', (c: string) => assert(pk, c, { rpId: 'evil.example' }), /RP ID/],
  ['no user presence', (c: string) => assert(pk, c, { flags: 0x00 }), /not present/],
  ['another challenge', () => assert(pk, 'ab'.repeat(32)), /challenge/],
  ['a signature by another key', (c: string) => assert({ ...pk, secretKey: newPasskey().secretKey }, c), /failed/],
  ['another credential', (c: string) => assert(newPasskey(), c), /credentialId/],
])('refuses an assertion with %s (401)', async (_what, make, reason) => {
  const ch = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  const res = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion: make(ch.body.challenge) },
    { headers: { 'Request-Id': ch.body.requestId } },
  );
  expectError(res, 401, 'UNAUTHORIZED');
  expect(res.body.details.reason).toMatch(reason);
});

it('refuses an assertion whose signature counter did not move past the stored one (a cloned authenticator)', async () => {
  const ok = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  expect(
    (
      await p.api.post(
        `/auth/credentials/${passkeyId}/verify`,
        { type: 'PASSKEY', assertion: assert(pk, ok.body.challenge) },
        { headers: { 'Request-Id': ok.body.requestId } },
      )
    ).status,
  ).toBe(200);
  const ch = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  const res = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion: assert(pk, ch.body.challenge, { counterStep: 0 }) },
    { headers: { 'Request-Id': ch.body.requestId } },
  );
  expectError(res, 401, 'UNAUTHORIZED');
  expect(res.body.details.reason).toMatch(/counter/);
  // The failed assertion did not burn the challenge: a genuine one still completes it.
  expect(
    (
      await p.api.post(
        `/auth/credentials/${passkeyId}/verify`,
        { type: 'PASSKEY', assertion: assert(pk, ch.body.challenge) },
        { headers: { 'Request-Id': ch.body.requestId } },
      )
    ).status,
  ).toBe(200);
});

it('needs the Request-Id of an unexpired challenge of this credential', async () => {
  const ch = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  expectError(
    await p.api.post(`/auth/credentials/${passkeyId}/verify`, {
      type: 'PASSKEY',
      assertion: assert(pk, ch.body.challenge),
    }),
    401,
    'REQUEST_ID_MISSING',
  );
  expectError(await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {}), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post(`/auth/credentials/${passkeyId}/challenge`, { clientPublicKey: 'xyz' }),
    400,
    'INVALID_INPUT',
  );

  // A second passkey on the account: its challenge does not open the first one's verify.
  const pk2 = newPasskey();
  const second = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    register(pk2, { nickname: "Ada's YubiKey (5C)" }),
    sessionKey,
  );
  expect(second.res.status, second.res.text).toBe(201);
  const ch2 = await p.api.post(`/auth/credentials/${second.res.body.id}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  const cross = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion: assert(pk, ch2.body.challenge) },
    { headers: { 'Request-Id': ch2.body.requestId } },
  );
  expectError(cross, 401, 'UNAUTHORIZED');

  const q = await newPlatform();
  const wq = await newWallet(q);
  const kq = (await otpLogin(q.api, wq.emailOtpId)).key;
  const pkq = newPasskey();
  const c = integratorChallenge();
  const reg = await signed(
    q.api,
    'POST',
    '/auth/credentials',
    { type: 'PASSKEY', accountId: wq.accountId, nickname: 'Key', challenge: c, attestation: attest(pkq, c) },
    kq,
  );
  const chq = await q.api.post(`/auth/credentials/${reg.res.body.id}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  await advance(q, 301);
  const late = await q.api.post(
    `/auth/credentials/${reg.res.body.id}/verify`,
    { type: 'PASSKEY', assertion: assert(pkq, chq.body.challenge) },
    { headers: { 'Request-Id': chq.body.requestId } },
  );
  expectError(late, 401, 'UNAUTHORIZED');
  expect(late.body.details.reason).toBe('Signed request expired');
});

it.each([
  [
    'another origin',
    (pkx: Passkey, c: string) => ({ attestation: attest(pkx, c, { origin: 'https://evil.example' }) }),
    /origin/,
  ],
  ['no user presence', (pkx: Passkey, c: string) => ({ attestation: attest(pkx, c, { flags: 0x40 }) }), /not present/],
  [
    'an attestation over another challenge',
    (pkx: Passkey) => ({ attestation: attest(pkx, integratorChallenge()) }),
    /challenge/,
  ],
  [
    'an attestation for another RP',
    (pkx: Passkey, c: string) => ({ attestation: attest({ ...pkx, rpId: 'evil.example' }, c) }),
    /RP ID/,
  ],
])('refuses a registration with %s (401)', async (_what, change, reason) => {
  const pkx = newPasskey();
  const c = integratorChallenge();
  const res = await p.api.post('/auth/credentials', register(pkx, change(pkx, c), c));
  expectError(res, 401, 'UNAUTHORIZED');
  expect(res.body.details.reason).toMatch(reason);
});

it('refuses a registered credential id (PASSKEY_CREDENTIAL_ALREADY_EXISTS), a reused registration challenge and a bad nickname', async () => {
  expectError(await p.api.post('/auth/credentials', register(pk)), 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
  const pk3 = newPasskey();
  const c = integratorChallenge();
  const first = await signed(p.api, 'POST', '/auth/credentials', register(pk3, {}, c), sessionKey);
  expect(first.res.status).toBe(201);
  const reuse = await p.api.post('/auth/credentials', register(newPasskey(), {}, c));
  expectError(reuse, 401, 'UNAUTHORIZED');
  expect(reuse.body.details.reason).toBe('Registration challenge already used');
  expectError(await p.api.post('/auth/credentials', register(newPasskey(), { nickname: '   ' })), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post('/auth/credentials', register(newPasskey(), { nickname: 'key<script>' })),
    400,
    'INVALID_INPUT',
  );
  const pk4 = newPasskey();
  const c4 = integratorChallenge();
  expectError(
    await p.api.post(
      '/auth/credentials',
      register(pk4, { attestation: { ...attest(pk4, c4), attestationObject: '***' } }, c4),
    ),
    400,
    'INVALID_INPUT',
  );
});

it('accepts the legacy literal assertion signature in sandbox only', async () => {
  const literal = (c: string) => ({ ...assert(pk, c), signature: 'sandbox-valid-passkey-signature' });
  const ch = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  const ok = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion: literal(ch.body.challenge) },
    { headers: { 'Request-Id': ch.body.requestId } },
  );
  expect(ok.status, ok.text).toBe(200);
  const ch2 = await p.api.post(`/auth/credentials/${passkeyId}/challenge`, {
    clientPublicKey: newClientKey().publicKey,
  });
  switchMode('production');
  const no = await p.api.post(
    `/auth/credentials/${passkeyId}/verify`,
    { type: 'PASSKEY', assertion: literal(ch2.body.challenge) },
    { headers: { 'Request-Id': ch2.body.requestId } },
  );
  expectError(no, 401, 'UNAUTHORIZED');
});
