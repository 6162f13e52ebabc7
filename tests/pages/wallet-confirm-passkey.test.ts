import { beforeAll, expect, it, vi } from 'vitest';
import { newClientKey } from '@/lib/wallet-auth/testing/client';
import { newWallet, registerPasskeys } from '@/lib/wallet-auth/testing/flows';
import { assert, newPasskey, type Passkey } from '@/lib/wallet-auth/testing/passkey';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { current, CookieJar } from './cookie-jar';
import { json, request } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// "Confirm it's you" with a passkey (issue 27, point 5): any of the signed-in wallet's passkeys
// answers — not only the first one registered — and it signs in again only as the same wallet.
// The start lists the wallet's passkeys only to a browser already signed in to it.
const { POST: start } = await import('@/app/wallet/api/sign-in/start/route');
const { POST: verify } = await import('@/app/wallet/api/sign-in/verify/route');
const { GET: me } = await import('@/app/wallet/api/me/route');

let p: TestPlatform;
type Wallet = Awaited<ReturnType<typeof newWallet>>;
let w: Wallet;
let other: Wallet;
const laptop = newPasskey();
const phone = newPasskey();
const stranger = newPasskey();
/** A passkey's WebAuthn credential id as the browser is given it (base64url). */
const id = (pk: Passkey) => Buffer.from(pk.credentialId).toString('base64url');

beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
  w = await newWallet(p);
  other = await newWallet(p);
  await registerPasskeys(p, w, [
    [laptop, 'Laptop'],
    [phone, 'Phone'],
  ]);
  await registerPasskeys(p, other, [[stranger, 'Not mine']]);
});

const begin = async (jar: CookieJar, extra: Record<string, unknown>) => {
  current.jar = jar;
  const body = { method: 'PASSKEY', clientPublicKey: newClientKey().publicKey, ...extra };
  return json(await start(request('POST', '/sign-in/start', body)));
};
const answer = async (jar: CookieJar, assertion: Record<string, unknown>) => {
  current.jar = jar;
  return json(await verify(request('POST', '/sign-in/verify', { type: 'PASSKEY', assertion })));
};

/** A browser signed in to `w` with its laptop passkey (a discoverable sign-in). */
async function signedInBrowser(): Promise<CookieJar> {
  const jar = new CookieJar();
  const s = await begin(jar, {});
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  expect((await answer(jar, assert(laptop, s.body.challenge))).status).toBe(200);
  return jar;
}

it('confirms with the second passkey and stays the same wallet; the start lists every passkey of it', async () => {
  const jar = await signedInBrowser();
  const before = jar.get('corridor_wallet')!.value;
  const c = await begin(jar, { confirm: true });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  expect([...c.body.allowCredentials].sort()).toEqual([id(laptop), id(phone)].sort());
  const done = await answer(jar, assert(phone, c.body.challenge));
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(jar.get('corridor_wallet')!.value).not.toBe(before);
  current.jar = jar;
  const who = await json(await me());
  expect(who.body).toMatchObject({ signedIn: true, walletAccountId: w.accountId, customer: { email: w.email } });
});

it("refuses a confirmation by another wallet's passkey, and keeps the session it had", async () => {
  const jar = await signedInBrowser();
  const before = jar.get('corridor_wallet')!.value;
  const c = await begin(jar, { confirm: true });
  expect(c.status).toBe(200);
  expect(c.body.allowCredentials).not.toContain(id(stranger));
  const refused = await answer(jar, assert(stranger, c.body.challenge));
  expect(refused).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(refused.body.message).toMatch(/another wallet/);
  expect(jar.get('corridor_wallet')!.value).toBe(before);
  current.jar = jar;
  expect((await json(await me())).body).toMatchObject({ signedIn: true, walletAccountId: w.accountId });
});

it('lists no passkeys to a browser that is not signed in', async () => {
  const c = await begin(new CookieJar(), { confirm: true });
  expect(c).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(c.body.allowCredentials).toBeUndefined();
});
