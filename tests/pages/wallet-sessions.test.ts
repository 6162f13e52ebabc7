import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, newWallet } from '@/lib/wallet-auth/testing/flows';
import { newClientKey, stamp } from '@/lib/wallet-auth/testing/client';
import { current, CookieJar } from './cookie-jar';
import { json, request, signIn } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 27, points 4-6: the page learns the session's time left on the platform's clock; the
// devices signed in are listed and another one can be signed out (a signed retry); the recovery
// phrase and credential changes need a sign-in of the last five minutes.
const { GET: me } = await import('@/app/wallet/api/me/route');
const { GET: sessions } = await import('@/app/wallet/api/sessions/route');
const { DELETE: endSession } = await import('@/app/wallet/api/sessions/[id]/route');
const { POST: exportWallet } = await import('@/app/wallet/api/export/route');
const { POST: passkeyOptions } = await import('@/app/wallet/api/credentials/options/route');

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
});
beforeEach(() => {
  current.jar = new CookieJar();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe('wallet sessions', () => {
  it("answers the time left on the platform's clock", async () => {
    const w = await newWallet(p);
    await signIn(w.email);
    const first = (await json(await me())).body.session.secondsLeft;
    expect(first).toBeGreaterThan(890);
    expect(first).toBeLessThanOrEqual(900);
    await advance(p, 600);
    const later = (await json(await me())).body.session.secondsLeft;
    expect(later).toBeGreaterThan(290);
    expect(later).toBeLessThanOrEqual(300);
  });

  it('lists the devices signed in and signs another one out', async () => {
    const w = await newWallet(p);
    const phone = await signIn(w.email);
    await advance(p, 31);
    const laptop = await signIn(w.email);
    const listed = await json(await sessions());
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    const other = listed.body.data.find((s: { current: boolean }) => !s.current);
    expect(listed.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const first = await json(await endSession(request('DELETE', `/sessions/${other.id}`, {}), params(other.id)));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const done = await endSession(
      request(
        'DELETE',
        `/sessions/${other.id}`,
        {},
        { 'service-wallet-signature': stamp(first.body.payloadToSign, laptop.key), 'request-id': first.body.requestId },
      ),
      params(other.id),
    );
    expect(done.status).toBe(204);
    expect((await json(await sessions())).body.data).toHaveLength(1);
    current.jar = phone.jar;
    expect((await json(await me())).body).toEqual({ signedIn: false });
    // The signed-out device's next action is told its session is gone (the page returns to sign-in).
    expect(await json(await sessions())).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', details: { reason: 'NO_SESSION' } },
    });
    // A session of another wallet is not found.
    const stranger = await newWallet(p);
    await signIn(stranger.email);
    const foreign = await json(await endSession(request('DELETE', `/sessions/${other.id}`, {}), params(other.id)));
    expect(foreign.status).toBe(404);
  });

  it('the recovery phrase needs a sign-in of the last five minutes', async () => {
    const w = await newWallet(p);
    await signIn(w.email);
    const body = { clientPublicKey: newClientKey().publicKeyUncompressed };
    expect((await json(await exportWallet(request('POST', '/export', body)))).status).toBe(202);
    // The page learns how long the sign-in stays fresh, to ask before the server would refuse.
    const fresh = (await json(await me())).body.session.freshSecondsLeft;
    expect(fresh).toBeGreaterThan(290);
    expect(fresh).toBeLessThanOrEqual(300);
    await advance(p, 6 * 60);
    expect((await json(await me())).body.session.freshSecondsLeft).toBe(0);
    const stale = await json(await exportWallet(request('POST', '/export', body)));
    expect(stale.status).toBe(403);
    expect(stale.body.details).toMatchObject({ reason: 'REAUTHENTICATION_REQUIRED' });
    await signIn(w.email);
    expect((await json(await exportWallet(request('POST', '/export', body)))).status).toBe(202);
  });
});

describe('wallet credential changes', () => {
  it('adding a passkey and signing out another device need a sign-in of the last five minutes', async () => {
    const w = await newWallet(p);
    const other = await signIn(w.email);
    await advance(p, 31);
    const mine = await signIn(w.email);
    const otherId = (await json(await sessions())).body.data.find((s: { current: boolean }) => !s.current).id;
    expect((await json(await passkeyOptions(request('POST', '/credentials/options', {})))).status).toBe(200);
    await advance(p, 6 * 60);
    const options = await json(await passkeyOptions(request('POST', '/credentials/options', {})));
    expect(options).toMatchObject({ status: 403, body: { details: { reason: 'REAUTHENTICATION_REQUIRED' } } });
    const revoke = await json(await endSession(request('DELETE', `/sessions/${otherId}`, {}), params(otherId)));
    expect(revoke).toMatchObject({ status: 403, body: { details: { reason: 'REAUTHENTICATION_REQUIRED' } } });
    // Confirmed (a new sign-in in this browser), both go ahead; the other device is still signed in.
    await advance(p, 31);
    current.jar = mine.jar;
    await signIn(w.email);
    expect((await json(await passkeyOptions(request('POST', '/credentials/options', {})))).status).toBe(200);
    expect((await json(await endSession(request('DELETE', `/sessions/${otherId}`, {}), params(otherId)))).status).toBe(
      202,
    );
    current.jar = other.jar;
    expect((await json(await me())).body.signedIn).toBe(true);
  });
});
