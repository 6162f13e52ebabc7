import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { newWallet } from '@/lib/wallet-auth/testing/flows';
import { encryptOtpBundle, newClientKey, stamp } from '@/lib/wallet-auth/testing/client';
import { current, CookieJar } from './cookie-jar';
import { json, ORIGIN, request, signIn } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// The wallet pages' server side, called as Next.js calls it (route handlers, the browser's cookie
// jar): it forwards a customer's own requests only, refuses cross-site requests, never promotes a
// cookie it did not issue, and signing out revokes the wallet session.
const { POST: start } = await import('@/app/wallet/api/sign-in/start/route');
const { POST: verify } = await import('@/app/wallet/api/sign-in/verify/route');
const { GET: me } = await import('@/app/wallet/api/me/route');
const { POST: signOut } = await import('@/app/wallet/api/sign-out/route');
const { GET: listCredentials } = await import('@/app/wallet/api/credentials/route');
const { DELETE: revokeCredential } = await import('@/app/wallet/api/credentials/[id]/route');
const { POST: quote } = await import('@/app/wallet/api/quotes/route');
const { POST: execute } = await import('@/app/wallet/api/quotes/[id]/execute/route');
const { GET: transactions } = await import('@/app/wallet/api/transactions/route');

let p: TestPlatform;

beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
});
beforeEach(() => {
  current.jar = new CookieJar();
});

describe('wallet pages: sessions', () => {
  it('signing in sets a fresh HttpOnly SameSite=Strict cookie; a planted one is never promoted', async () => {
    const w = await newWallet(p);
    const planted = 'planted-token-from-an-attacker-0000000000000';
    const { jar } = await signIn(w.email);
    expect(jar.get('corridor_wallet')?.value).toBeTruthy();
    expect(jar.get('corridor_wallet')?.value).not.toBe(planted);
    expect(jar.options.get('corridor_wallet')).toMatchObject({ httpOnly: true, sameSite: 'strict', path: '/wallet' });
    expect(jar.has('corridor_wallet_login')).toBe(false);
    expect((await json(await me())).body).toMatchObject({ signedIn: true, customer: { id: w.customerId } });

    current.jar = new CookieJar().set('corridor_wallet', planted);
    expect((await json(await me())).body).toEqual({ signedIn: false });
  });

  it('sign-out is a signed retry that revokes the wallet session; the old cookie then opens nothing', async () => {
    const w = await newWallet(p);
    const { jar, key } = await signIn(w.email);
    const token = jar.get('corridor_wallet')!.value;
    const first = await json(await signOut(request('POST', '/sign-out', {})));
    expect(first.status).toBe(202);
    const done = await json(
      await signOut(
        request(
          'POST',
          '/sign-out',
          {},
          {
            'service-wallet-signature': stamp(first.body.payloadToSign, key),
            'request-id': first.body.requestId,
          },
        ),
      ),
    );
    expect(done).toEqual({ status: 200, body: { signedOut: true } });
    expect((await p.api.get('/auth/sessions', { query: { accountId: w.accountId } })).body.data).toEqual([]);
    current.jar = new CookieJar().set('corridor_wallet', token);
    expect((await json(await listCredentials())).status).toBe(401);
  });

  it('a wrong code and a verification without a started sign-in are refused', async () => {
    // (An unknown email is answered as a known one: tests/pages/wallet-sign-in.test.ts.)
    const verifyAlone = await json(
      await verify(request('POST', '/sign-in/verify', { type: 'EMAIL_OTP', encryptedOtpBundle: 'x' })),
    );
    expect(verifyAlone.status).toBe(401);
    const w = await newWallet(p);
    const started = await json(await start(request('POST', '/sign-in/start', { email: w.email, method: 'EMAIL_OTP' })));
    const bad = await json(
      await verify(
        request('POST', '/sign-in/verify', {
          type: 'EMAIL_OTP',
          encryptedOtpBundle: await encryptOtpBundle(started.body.otpEncryptionTargetBundle, '999999', newClientKey()),
        }),
      ),
    );
    expect(bad.status).toBe(401);
    expect(current.jar.has('corridor_wallet')).toBe(false);
  });
});

describe('wallet pages: one customer cannot reach another', () => {
  it("a second customer's session reads only its own data and cannot act on the first's quote or credentials", async () => {
    const a = await newWallet(p);
    const b = await newWallet(p);
    const alice = await signIn(a.email);
    const aliceCredentials = (await json(await listCredentials())).body.data;
    expect(aliceCredentials.map((c: { accountId: string }) => c.accountId)).toEqual([a.accountId]);
    expect((await p.api.post(`/sandbox/internal-accounts/${a.accountId}/fund`, { amount: 10_000 })).status).toBe(200);
    const q = await json(
      await quote(
        request('POST', '/quotes', { destination: { umaAddress: '$success.mxn@sandbox.uma.money' }, amount: '500' }),
      ),
    );
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    expect(q.body.source).toMatchObject({ sourceType: 'ACCOUNT', accountId: a.accountId });

    await signIn(b.email);
    expect((await json(await me())).body.customer.id).toBe(b.customerId);
    const params = (id: string) => ({ params: Promise.resolve({ id }) });
    const payload = q.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign;
    const stolen = await json(
      await execute(
        request('POST', `/quotes/${q.body.id}/execute`, {}, { 'service-wallet-signature': stamp(payload, alice.key) }),
        params(q.body.id),
      ),
    );
    expect(stolen.status).toBe(404);
    expect(
      (
        await json(
          await revokeCredential(
            request('DELETE', `/credentials/${aliceCredentials[0].id}`, {}),
            params(aliceCredentials[0].id),
          ),
        )
      ).status,
    ).toBe(404);
    const own = await json(await transactions(request('GET', '/transactions')));
    expect(own.body.data.every((t: { customerId: string }) => t.customerId === b.customerId)).toBe(true);
    // The quote's source is always the signed-in customer's wallet, whatever the browser sends.
    const forced = await json(
      await quote(
        request('POST', '/quotes', {
          source: { accountId: a.accountId },
          destination: { umaAddress: '$success.mxn@sandbox.uma.money' },
          amount: '500',
        }),
      ),
    );
    expect(forced.body.source?.accountId ?? b.accountId).toBe(b.accountId);

    // Back as Alice, her own quote executes with her own stamp.
    current.jar = alice.jar;
    const paid = await json(
      await execute(
        request('POST', `/quotes/${q.body.id}/execute`, {}, { 'service-wallet-signature': stamp(payload, alice.key) }),
        params(q.body.id),
      ),
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  });
});

describe('wallet pages: cross-site requests', () => {
  it('a state-changing request from another origin, without an Origin, or not JSON is refused', async () => {
    const w = await newWallet(p);
    await signIn(w.email);
    const evil = await signOut(request('POST', '/sign-out', {}, { origin: 'http://evil.example' }));
    expect(evil.status).toBe(403);
    const noOrigin = new Request(`${ORIGIN}/wallet/api/sign-out`, {
      method: 'POST',
      headers: { host: 'localhost:3000', 'content-type': 'application/json' },
      body: '{}',
    });
    expect((await signOut(noOrigin)).status).toBe(403);
    const form = await signOut(
      request('POST', '/sign-out', undefined, { 'content-type': 'application/x-www-form-urlencoded' }),
    );
    expect(form.status).toBe(415);
    expect((await p.api.get('/auth/sessions', { query: { accountId: w.accountId } })).body.data).toHaveLength(1);
  });
});
