import { createServer, type Server } from 'node:http';
import { webcrypto } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, newWallet, otpLogin, signed } from './testing/flows';
import {
  clientKeyFromSecret,
  googleClaims,
  newClientKey,
  oidcToken,
  openSessionKeyBundle,
  sha256Hex,
  type ClientKey,
} from './testing/client';
import { switchMode } from '@/tests/support/mode';

// OAUTH credentials: JWT-shaped OIDC tokens with real claims; in sandbox a dummy signature, in
// production a signature checked against the issuer's JWKS (served here by a local server).
const nowS = () => Math.floor(Date.now() / 1000);

let p: TestPlatform;
let w: Awaited<ReturnType<typeof newWallet>>;
let emailKey: ClientKey;
let oauthId: string;
beforeAll(async () => {
  p = await newPlatform();
  w = await newWallet(p);
  emailKey = (await otpLogin(p.api, w.emailOtpId)).key;
});
afterEach(() => {
  switchMode('sandbox');
});

it('registers with a signed retry: 202 naming the provider, then 201 with the email claim as nickname', async () => {
  const body = { type: 'OAUTH', accountId: w.accountId, oidcToken: await oidcToken(googleClaims(nowS())) };
  const { challenge, res } = await signed(p.api, 'POST', '/auth/credentials', body, emailKey);
  expect(challenge.body.type).toBe('OAUTH');
  expect(JSON.parse(challenge.body.payloadToSign)).toMatchObject({
    type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
    organizationId: p.platformId,
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toMatchObject({ type: 'OAUTH', nickname: 'user@example.com', accountId: w.accountId });
  expect(res.body.otpEncryptionTargetBundle).toBeUndefined();
  oauthId = res.body.id;
  // One OAUTH credential per provider identity (iss, sub).
  expectError(
    await p.api.post('/auth/credentials', { ...body, oidcToken: await oidcToken(googleClaims(nowS())) }),
    400,
    'INVALID_INPUT',
  );
  // Another identity of the same provider is another credential.
  const other = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { ...body, oidcToken: await oidcToken(googleClaims(nowS(), { sub: '999', email: 'other@example.com' })) },
    emailKey,
  );
  expect(other.res.status).toBe(201);
});

it.each([
  ['not three segments', 'abc.def', 400, 'INVALID_INPUT'],
  [
    'a payload that is not JSON',
    `${Buffer.from('{}').toString('base64url')}.${Buffer.from('nope').toString('base64url')}.sig`,
    400,
    'INVALID_INPUT',
  ],
])('refuses a token that is %s with 400', async (_what, token, status, code) => {
  expectError(
    await p.api.post('/auth/credentials', { type: 'OAUTH', accountId: w.accountId, oidcToken: token }),
    status,
    code,
  );
});

// Time-dependent claims are computed when each case runs.
it.each([
  ['an unsupported issuer', () => ({ iss: 'https://evil.example' }), 400, 'INVALID_INPUT', undefined],
  [
    'no aud',
    () => ({ aud: undefined }),
    401,
    'UNAUTHORIZED',
    'aud must be a non-empty string or a one-element array of one',
  ],
  [
    'two audiences',
    () => ({ aud: ['a', 'b'] }),
    401,
    'UNAUTHORIZED',
    'aud must be a non-empty string or a one-element array of one',
  ],
  ['an empty sub', () => ({ sub: '' }), 401, 'UNAUTHORIZED', 'sub must be a non-empty string'],
  ['a string iat', () => ({ iat: String(nowS()) }), 401, 'UNAUTHORIZED', 'iat must be a number'],
  ['an iat 70 s old', () => ({ iat: nowS() - 70 }), 401, 'UNAUTHORIZED', 'iat is more than 60 seconds old'],
  ['an iat 10 s ahead', () => ({ iat: nowS() + 10 }), 401, 'UNAUTHORIZED', 'iat is in the future'],
  ['no exp', () => ({ exp: undefined }), 401, 'UNAUTHORIZED', 'exp must be a number'],
  ['an exp in the past', () => ({ exp: nowS() - 1 }), 401, 'UNAUTHORIZED', 'Token expired (exp is in the past)'],
])('refuses registration with %s', async (_what, change, status, code, reason) => {
  const res = await p.api.post('/auth/credentials', {
    type: 'OAUTH',
    accountId: w.accountId,
    oidcToken: await oidcToken(googleClaims(nowS(), { sub: 'fresh', ...change() })),
  });
  expectError(res, status, code);
  if (reason) expect(res.body.details.reason).toBe(reason);
});

it('allows 5 s of clock skew in sandbox (iat 63 s old, or 3 s ahead) and a one-element aud array', async () => {
  for (const [i, claims] of [
    { iat: nowS() - 63 },
    { iat: nowS() + 3 },
    { aud: ['client-123.apps.googleusercontent.com'] },
  ].entries()) {
    const res = await p.api.post('/auth/credentials', {
      type: 'OAUTH',
      accountId: w.accountId,
      oidcToken: await oidcToken(googleClaims(nowS(), { sub: `skew-${i}`, ...claims })),
    });
    expect(res.status, res.text).toBe(202);
  }
});

it('verifies with a fresh token whose nonce commits to a compressed clientPublicKey: a client-held session', async () => {
  const key = newClientKey();
  const res = await p.api.post(`/auth/credentials/${oauthId}/verify`, {
    type: 'OAUTH',
    oidcToken: await oidcToken(googleClaims(nowS(), { nonce: sha256Hex(key.publicKey) })),
    clientPublicKey: key.publicKey,
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ type: 'OAUTH', nickname: 'user@example.com', accountId: w.accountId });
  expect(res.body.encryptedSessionSigningKey).toBeUndefined();
  const act = await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, key);
  expect(act.res.status, act.res.text).toBe(200);
});

it('verifies with an uncompressed clientPublicKey: the legacy flow seals a fresh session key to it', async () => {
  const key = newClientKey();
  const res = await p.api.post(`/auth/credentials/${oauthId}/verify`, {
    type: 'OAUTH',
    oidcToken: await oidcToken(googleClaims(nowS(), { nonce: sha256Hex(key.publicKeyUncompressed) })),
    clientPublicKey: key.publicKeyUncompressed,
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.encryptedSessionSigningKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
  const sessionKey = clientKeyFromSecret(await openSessionKeyBundle(res.body.encryptedSessionSigningKey, key));
  expect(sessionKey.publicKey).not.toBe(key.publicKey);
  // The decrypted key is the session's signing key; the client's own key is not.
  expect(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: false }, sessionKey)).res
      .status,
  ).toBe(200);
  expectError(
    (await signed(p.api, 'PATCH', `/internal-accounts/${w.accountId}`, { privateEnabled: true }, key)).res,
    401,
    'WALLET_SIGNATURE_INVALID',
  );
});

it.each([
  [
    'a nonce over another key',
    () => ({ nonce: sha256Hex(newClientKey().publicKey) }),
    'nonce must be the SHA-256 hex digest of clientPublicKey',
  ],
  ['no nonce', () => ({}), 'nonce must be the SHA-256 hex digest of clientPublicKey'],
  [
    'another subject',
    (k: ClientKey) => ({ nonce: sha256Hex(k.publicKey), sub: 'someone-else' }),
    'aud and sub do not match the credential',
  ],
  [
    'another audience',
    (k: ClientKey) => ({ nonce: sha256Hex(k.publicKey), aud: 'other-client' }),
    'aud and sub do not match the credential',
  ],
  [
    'another issuer',
    (k: ClientKey) => ({ nonce: sha256Hex(k.publicKey), iss: 'https://appleid.apple.com' }),
    'iss does not match the credential',
  ],
  [
    'a stale token',
    (k: ClientKey) => ({ nonce: sha256Hex(k.publicKey), iat: nowS() - 120 }),
    'iat is more than 60 seconds old',
  ],
])('refuses verification with %s (401 naming the check)', async (_what, claims, reason) => {
  const key = newClientKey();
  const res = await p.api.post(`/auth/credentials/${oauthId}/verify`, {
    type: 'OAUTH',
    oidcToken: await oidcToken(googleClaims(nowS(), claims(key))),
    clientPublicKey: key.publicKey,
  });
  expectError(res, 401, 'UNAUTHORIZED');
  expect(res.body.details.reason).toBe(reason);
});

it('measures token age on the platform clock', async () => {
  const q = await newPlatform();
  const w2 = await newWallet(q);
  await otpLogin(q.api, w2.emailOtpId);
  await advance(q, 3600);
  // A token minted "now" by the wall clock is an hour old for this platform.
  const stale = await q.api.post('/auth/credentials', {
    type: 'OAUTH',
    accountId: w2.accountId,
    oidcToken: await oidcToken(googleClaims(nowS())),
  });
  expectError(stale, 401, 'UNAUTHORIZED');
  const fresh = await q.api.post('/auth/credentials', {
    type: 'OAUTH',
    accountId: w2.accountId,
    oidcToken: await oidcToken(googleClaims(nowS() + 3600)),
  });
  expect(fresh.status).toBe(202);
});

it('has no challenge step', async () => {
  expectError(await p.api.post(`/auth/credentials/${oauthId}/challenge`), 400, 'INVALID_INPUT');
});

describe('outside sandbox', () => {
  let server: Server;
  let signer: { kid: string; alg: 'ES256'; key: CryptoKey };
  beforeAll(async () => {
    const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const jwk = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
    signer = { kid: 'k1', alg: 'ES256', key: pair.privateKey };
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [{ ...jwk, kid: 'k1', alg: 'ES256', use: 'sig' }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    process.env.CORRIDOR_OIDC_ISSUERS = JSON.stringify({ 'https://issuer.test': `http://127.0.0.1:${port}/jwks` });
  });
  afterAll(async () => {
    delete process.env.CORRIDOR_OIDC_ISSUERS;
    await new Promise((r) => server.close(r));
  });

  it("checks the signature against the issuer's JWKS", async () => {
    const claims = googleClaims(nowS(), { iss: 'https://issuer.test', sub: 'jwks-user' });
    switchMode('production');
    const good = await p.api.post('/auth/credentials', {
      type: 'OAUTH',
      accountId: w.accountId,
      oidcToken: await oidcToken(claims, signer),
    });
    expect(good.status, good.text).toBe(202);
    const dummy = await p.api.post('/auth/credentials', {
      type: 'OAUTH',
      accountId: w.accountId,
      oidcToken: await oidcToken(claims),
    });
    expectError(dummy, 401, 'UNAUTHORIZED');
    expect(dummy.body.details.reason).toBe('Token signature does not verify with the issuer keys');
    const parts = (await oidcToken(claims)).split('.');
    parts[0] = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const none = await p.api.post('/auth/credentials', {
      type: 'OAUTH',
      accountId: w.accountId,
      oidcToken: parts.join('.'),
    });
    expectError(none, 401, 'UNAUTHORIZED');
    expect(none.body.details.reason).toBe('Unsupported token algorithm none');
    const otherKey = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
    ])) as CryptoKeyPair;
    const forged = await p.api.post('/auth/credentials', {
      type: 'OAUTH',
      accountId: w.accountId,
      oidcToken: await oidcToken(claims, { ...signer, key: otherKey.privateKey }),
    });
    expectError(forged, 401, 'UNAUTHORIZED');
    expect(forged.body.details.reason).toBe('Token signature does not verify with the issuer keys');
    const tampered = (await oidcToken(claims, signer)).split('.');
    tampered[1] = Buffer.from(JSON.stringify({ ...claims, sub: 'attacker' })).toString('base64url');
    expectError(
      await p.api.post('/auth/credentials', { type: 'OAUTH', accountId: w.accountId, oidcToken: tampered.join('.') }),
      401,
      'UNAUTHORIZED',
    );
  });
});
