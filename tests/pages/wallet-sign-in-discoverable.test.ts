import { randomBytes } from 'node:crypto';
import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { newClientKey, stamp, type ClientKey } from '@/lib/wallet-auth/testing/client';
import { advance, newWallet, otpLogin, signed } from '@/lib/wallet-auth/testing/flows';
import { assert, attest, newPasskey, type Passkey } from '@/lib/wallet-auth/testing/passkey';
import { db } from '@/lib/core/db';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { current, CookieJar } from './cookie-jar';
import { json, request } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 27, point 5: "Sign in with a passkey" with no email typed. The start names no credential
// (the browser offers this site's discoverable passkeys); the assertion names the passkey, whose
// wallet gets a session for the browser's new key. Unknown, forged and replayed assertions are
// refused and leave no session cookie.
const { POST: start } = await import('@/app/wallet/api/sign-in/start/route');
const { POST: verify } = await import('@/app/wallet/api/sign-in/verify/route');
const { GET: me } = await import('@/app/wallet/api/me/route');
const { POST: exportWallet } = await import('@/app/wallet/api/export/route');

let p: TestPlatform;
let w: Awaited<ReturnType<typeof newWallet>>;
let pk: Passkey;
let passkeyId: string;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
  w = await newWallet(p);
  const { key } = await otpLogin(p.api, w.emailOtpId);
  pk = newPasskey();
  const challenge = randomBytes(32).toString('base64url');
  const body = {
    type: 'PASSKEY',
    accountId: w.accountId,
    nickname: 'Laptop',
    challenge,
    attestation: attest(pk, challenge),
  };
  const created = await signed(p.api, 'POST', '/auth/credentials', body, key);
  expect(created.res.status, created.res.text).toBe(201);
  passkeyId = created.res.body.id;
});
beforeEach(() => {
  current.jar = new CookieJar();
});

/** A discoverable start in a browser of its own, with a new session key. */
async function begin(extra: Record<string, unknown> = {}) {
  const jar = new CookieJar();
  current.jar = jar;
  const key = newClientKey();
  const res = await json(
    await start(request('POST', '/sign-in/start', { method: 'PASSKEY', clientPublicKey: key.publicKey, ...extra })),
  );
  return { ...res, jar, key };
}

async function answer(s: { jar: CookieJar }, assertion: Record<string, unknown>) {
  current.jar = s.jar;
  return json(await verify(request('POST', '/sign-in/verify', { type: 'PASSKEY', assertion })));
}

it('signs in with the passkey the browser offers, no email given, for the key the start named', async () => {
  const s = await begin();
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  expect(Object.keys(s.body).sort()).toEqual(['challenge', 'discoverable', 'method', 'requestId', 'rpId']);
  expect(s.body.challenge).toMatch(/^[0-9a-f]{64}$/);
  const done = await answer(s, assert(pk, s.body.challenge));
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(s.jar.has('corridor_wallet')).toBe(true);
  const who = await json(await me());
  expect(who.body).toMatchObject({ signedIn: true, walletAccountId: w.accountId, customer: { email: w.email } });
  // The session key is the browser's key the start named: it signs the recovery phrase's export.
  const body = { clientPublicKey: newClientKey().publicKeyUncompressed };
  const first = await json(await exportWallet(request('POST', '/export', body)));
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  const sig = (k: ClientKey) => ({
    'service-wallet-signature': stamp(first.body.payloadToSign, k),
    'request-id': first.body.requestId,
  });
  expect((await exportWallet(request('POST', '/export', body, sig(newClientKey())))).status).toBe(401);
  const exported = await exportWallet(request('POST', '/export', body, sig(s.key)));
  expect(exported.status).toBe(200);
});

it('writes nothing for starts nobody answers, one spent row for an answer, and refuses late or racing answers', async () => {
  const rows = () => db().signedRequest.count({ where: { platformId: p.platformId } });
  const before = await rows();
  for (let i = 0; i < 25; i++) expect((await begin()).status).toBe(200);
  // Anyone may start one: nothing stored for it (the browser holds it sealed).
  expect(await rows()).toBe(before);

  // Two answers to one start at once (the same login cookie, the same assertion): one session.
  const s = await begin();
  const assertion = assert(pk, s.body.challenge);
  const both = await Promise.all([answer(s, assertion), answer(s, assertion)]);
  expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
  expect(await rows()).toBe(before + 1);

  // An answer after five minutes on the platform's clock is refused.
  const late = await begin();
  await advance(p, 301);
  const refused = await answer(late, assert(pk, late.body.challenge));
  expect(refused).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(late.jar.has('corridor_wallet')).toBe(false);
});

it('refuses a replayed, an unknown, a forged and a revoked passkey, and opens no session', async () => {
  const s = await begin();
  const login = s.jar.get('corridor_wallet_login')!.value;
  const assertion = assert(pk, s.body.challenge);
  expect((await answer(s, assertion)).status).toBe(200);
  // Replayed by a browser that kept the login cookie: the challenge was single use.
  const copy = new CookieJar().set('corridor_wallet_login', login);
  const replayed = await answer({ jar: copy }, assertion);
  expect(replayed).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(copy.has('corridor_wallet')).toBe(false);
  // Nor does it answer another challenge.
  const again = await begin();
  expect((await answer(again, assertion)).status).toBe(401);

  const unknown = await begin();
  const u = await answer(unknown, assert(newPasskey(), unknown.body.challenge));
  expect(u).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(unknown.jar.has('corridor_wallet')).toBe(false);

  const forged = await begin();
  const f = await answer(forged, assert({ ...newPasskey(), credentialId: pk.credentialId }, forged.body.challenge));
  expect(f).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(forged.jar.has('corridor_wallet')).toBe(false);

  const noKey = await begin({ clientPublicKey: 'not-a-key' });
  expect(noKey).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });
  const noVerifyFirst = new CookieJar();
  current.jar = noVerifyFirst;
  expect((await json(await verify(request('POST', '/sign-in/verify', { type: 'PASSKEY', assertion })))).status).toBe(
    401,
  );

  // Revoked through the API (signed by another credential's session), the passkey no longer signs in.
  await advance(p, 31); // the code throttle: one code per 30 s
  const { key } = await otpLogin(p.api, w.emailOtpId);
  const revoked = await signed(p.api, 'DELETE', `/auth/credentials/${passkeyId}`, undefined, key);
  expect([200, 204], revoked.res.text).toContain(revoked.res.status);
  const after = await begin();
  expect((await answer(after, assert(pk, after.body.challenge))).status).toBe(401);
  expect(after.jar.has('corridor_wallet')).toBe(false);
});
