import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { decoyPasskeys } from '@/lib/wallet-auth/decoy';
import { SANDBOX_PASSKEY_SIGNATURE } from '@/lib/wallet-auth/login';
import { newClientKey } from '@/lib/wallet-auth/testing/client';
import { newWallet, registerPasskeys } from '@/lib/wallet-auth/testing/flows';
import { assert, newPasskey, type Passkey } from '@/lib/wallet-auth/testing/passkey';
import { db } from '@/lib/core/db';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { current, CookieJar } from './cookie-jar';
import { begin, json, request, stranger } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 23, finding 8, for passkeys: a passkey sign-in by email answers a wallet with a passkey,
// one without and an email with no wallet alike (a decoy's passkeys no authenticator holds),
// refuses their proofs alike, and a decoy never signs in. Issue 27: it offers every passkey of the
// wallet, and whichever answers signs in — only as that wallet.
const { POST: verify } = await import('@/app/wallet/api/sign-in/verify/route');
const { GET: me } = await import('@/app/wallet/api/me/route');

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
});
beforeEach(() => {
  current.jar = new CookieJar();
});

type Wallet = Awaited<ReturnType<typeof newWallet>>;
let w: Wallet;
let pk: Passkey;
/** A wallet with two passkeys, registered in this order. */
let two: Wallet;
const laptop = newPasskey();
const phone = newPasskey();

beforeAll(async () => {
  w = await newWallet(p);
  pk = newPasskey();
  await registerPasskeys(p, w, [[pk, 'Laptop']]);
  two = await newWallet(p);
  await registerPasskeys(p, two, [
    [laptop, 'Laptop'],
    [phone, 'Phone'],
  ]);
});

/** A passkey's WebAuthn credential id as the browser is given it (base64url). */
const id = (passkey: Passkey) => Buffer.from(passkey.credentialId).toString('base64url');
const passkeyStart = (email: string, clientPublicKey = newClientKey().publicKey) =>
  begin(email, 'PASSKEY', { clientPublicKey });

async function answer(s: Awaited<ReturnType<typeof begin>>, assertion: Record<string, unknown>) {
  current.jar = s.jar;
  return json(
    await verify(
      request('POST', '/sign-in/verify', { type: 'PASSKEY', assertion }, { 'request-id': s.body.requestId }),
    ),
  );
}

/** The passkey's answer with a key that is not the passkey's: what anyone without it can send. */
const forged = (s: Awaited<ReturnType<typeof begin>>, credentialId = s.body.allowCredentials[0]) =>
  answer(s, assert({ ...newPasskey(), credentialId: Buffer.from(credentialId, 'base64url') }, s.body.challenge));

it('same status and body shape for a wallet with a passkey, one without, and no wallet', async () => {
  const emails = [w.email, (await newWallet(p)).email, stranger()];
  const rows = () => db().signedRequest.count({ where: { platformId: p.platformId } });
  const before = await rows();
  const starts = [];
  for (const email of emails) starts.push(await passkeyStart(email));
  for (const s of starts) {
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(Object.keys(s.body).sort()).toEqual([
      'allowCredentials',
      'challenge',
      'discoverable',
      'method',
      'requestId',
      'rpId',
    ]);
    expect(s.body.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(s.body.requestId).toMatch(/^Request:[0-9a-f-]{36}$/);
    expect(s.body.allowCredentials.length).toBeGreaterThanOrEqual(1);
    expect(s.body.allowCredentials.length).toBeLessThanOrEqual(4);
    for (const c of s.body.allowCredentials) expect(c).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(s.cookie.length).toBe(starts[0].cookie.length);
  }
  expect(starts[0].body.allowCredentials).toEqual([id(pk)]);
  // Nothing is written for a start, a wallet's or a decoy's (the browser holds it sealed).
  expect(await rows()).toBe(before);
  // Asked again, an email names the same passkeys, whether it has them or not.
  for (const [i, email] of emails.entries())
    expect((await passkeyStart(email)).body.allowCredentials).toEqual(starts[i].body.allowCredentials);
});

it("offers every passkey of the wallet, and the second one answering signs in as the email's wallet", async () => {
  const s = await passkeyStart(two.email);
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  expect(s.body.allowCredentials).toEqual([id(laptop), id(phone)]);
  // The phone, registered second, answers (the laptop is elsewhere).
  const done = await answer(s, assert(phone, s.body.challenge));
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(s.jar.has('corridor_wallet')).toBe(true);
  current.jar = s.jar;
  expect((await json(await me())).body).toMatchObject({
    signedIn: true,
    walletAccountId: two.accountId,
    customer: { email: two.email },
  });
  // The session is the phone passkey's, for the key the start named.
  const sessions = await p.api.get('/auth/sessions', { query: { accountId: two.accountId } });
  expect(sessions.status, sessions.text).toBe(200);
  const session = sessions.body.data.find((x: { id: string }) => x.id === done.body.sessionId);
  expect(session).toMatchObject({ type: 'PASSKEY', nickname: 'Phone' });

  // The first passkey answers as well, each start once.
  const again = await passkeyStart(two.email);
  expect((await answer(again, assert(laptop, again.body.challenge))).status).toBe(200);
  expect((await answer(again, assert(laptop, again.body.challenge))).status).toBe(401);
});

it('a wallet with more than four passkeys lists the four used last, as no decoy lists more', async () => {
  const five = await newWallet(p);
  const keys = ['A', 'B', 'C', 'D', 'E'].map((name) => [newPasskey(), name] as [Passkey, string]);
  await registerPasskeys(p, five, keys);
  const [a, b, c, d, e] = keys.map(([k]) => k);
  // Each sign-in records its passkey as used: all but B have been used since B was registered.
  for (const used of [a, c, d, e]) {
    const s = await passkeyStart(five.email);
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.allowCredentials.length).toBeLessThanOrEqual(4);
    const done = await answer(s, assert(used, s.body.challenge));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  }
  const s = await passkeyStart(five.email);
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  // In the order registered, B left out.
  expect(s.body.allowCredentials).toEqual([id(a), id(c), id(d), id(e)]);
  expect(s.body.allowCredentials).not.toContain(id(b));
});

it("refuses another wallet's passkey for the email typed, and opens no session", async () => {
  // The browser offers only the listed passkeys; a page that sends another wallet's anyway is refused.
  const s = await passkeyStart(two.email);
  const refused = await answer(s, assert(pk, s.body.challenge));
  expect(refused).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(s.jar.has('corridor_wallet')).toBe(false);
  // Nor does a passkey of the email's wallet answer another email's start.
  const other = await passkeyStart(w.email);
  expect((await answer(other, assert(phone, other.body.challenge))).status).toBe(401);
  expect(other.jar.has('corridor_wallet')).toBe(false);
});

it('the same refusals for a forged assertion, another credential and a bad key', async () => {
  const known = await passkeyStart(w.email);
  const unknown = await passkeyStart(stranger());
  const a = await forged(known);
  expect(a).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(await forged(unknown)).toEqual(a);
  const other = id(newPasskey());
  const b = await forged(await passkeyStart(w.email), other);
  expect(await forged(await passkeyStart(stranger()), other)).toEqual(b);
  const badKey = await passkeyStart(w.email, 'not-a-key');
  expect(badKey.status).toBe(400);
  expect(await passkeyStart(stranger(), 'not-a-key')).toMatchObject({ status: 400, body: badKey.body });
});

it('a decoy lists as many passkeys as its email decides (one to four), and refuses its second as a wallet does', async () => {
  const counts = new Map<number, string>();
  for (let i = 0; i < 2000 && counts.size < 4; i++) {
    const email = stranger();
    counts.set(decoyPasskeys(p.platformId, email).credentials.length, email);
  }
  // Mostly one, sometimes more: a list longer than one does not tell a wallet from a decoy.
  expect([...counts.keys()].sort()).toEqual([1, 2, 3, 4]);
  const email = counts.get(2)!;
  const unknown = await passkeyStart(email);
  expect(unknown.body.allowCredentials).toHaveLength(2);
  expect(new Set(unknown.body.allowCredentials).size).toBe(2);
  const known = await passkeyStart(two.email);
  expect(await forged(unknown, unknown.body.allowCredentials[1])).toEqual(
    await forged(known, known.body.allowCredentials[1]),
  );
});

it("a decoy never signs in, not even with the sandbox's legacy signature", async () => {
  const unknown = await passkeyStart(stranger());
  const res = await answer(unknown, {
    ...assert(newPasskey(), unknown.body.challenge),
    credentialId: unknown.body.allowCredentials[0],
    signature: SANDBOX_PASSKEY_SIGNATURE,
  });
  expect(res.status).toBe(401);
  expect(unknown.jar.has('corridor_wallet')).toBe(false);
});
