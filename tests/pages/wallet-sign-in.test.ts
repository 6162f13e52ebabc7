import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { outboxOf } from '@/lib/notify/sender';
import { encryptOtpBundle, newClientKey, targetKeyOf } from '@/lib/wallet-auth/testing/client';
import { advance, newWallet } from '@/lib/wallet-auth/testing/flows';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { current, CookieJar } from './cookie-jar';
import { begin, json, request, stranger } from './wallet-client';
import { switchMode } from '@/tests/support/mode';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 23, finding 8: the wallet sign-in told who is a customer (404 USER_NOT_FOUND for an
// unknown email, 200 and a code for a known one). Now an unknown email gets the same answer as a
// known one — status, body, cookie, throttle and refusals — from a decoy that sends nothing and
// can never sign in.
const { POST: verify } = await import('@/app/wallet/api/sign-in/verify/route');

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
});
beforeEach(() => {
  current.jar = new CookieJar();
});
afterEach(() => {
  switchMode('sandbox');
});

const lengths = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v.length : v]));

/** What an OTP start answer shows: its fields, and the target bundle's fields and signed data. */
function shape(body: { otpEncryptionTargetBundle: string }) {
  const { data, dataSignature, ...bundle } = JSON.parse(body.otpEncryptionTargetBundle);
  const signed = JSON.parse(Buffer.from(data, 'hex').toString('utf8'));
  // A DER signature is 70 to 72 bytes long, whoever it is for.
  return {
    keys: Object.keys(body),
    bundle: lengths(bundle),
    signed: lengths(signed),
    signature: dataSignature.length > 130,
  };
}

/** The verification a browser sends with a code sealed to the bundle it was given. */
async function tryCode(s: Awaited<ReturnType<typeof begin>>, code: string) {
  current.jar = s.jar;
  const body = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(s.body.otpEncryptionTargetBundle, code, newClientKey()),
  };
  return json(await verify(request('POST', '/sign-in/verify', body)));
}

describe('an email code sign-in answers a known and an unknown email alike', () => {
  it('same status, body and cookie; the code goes to the known email only', async () => {
    const w = await newWallet(p);
    const other = stranger();
    switchMode('production');
    const known = await begin(w.email);
    const unknown = await begin(other);
    expect(known.status, JSON.stringify(known.body)).toBe(200);
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(200);
    expect(shape(unknown.body)).toEqual(shape(known.body));
    expect(targetKeyOf(unknown.body.otpEncryptionTargetBundle).signatureValid).toBe(true);
    expect(unknown.cookie.length).toBe(known.cookie.length);
    expect(unknown.cookie).not.toContain('decoy');
    expect(outboxOf(p.platformId, w.email)).toHaveLength(1);
    expect(outboxOf(p.platformId, other)).toEqual([]);
  });

  it('the same throttle: a second code within 30 s is refused alike, and allowed alike after', async () => {
    const w = await newWallet(p);
    const other = stranger();
    expect([(await begin(w.email)).status, (await begin(other)).status]).toEqual([200, 200]);
    const known = await begin(w.email);
    const unknown = await begin(other);
    expect(known.status).toBe(429);
    expect(unknown).toMatchObject({
      status: 429,
      body: { code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } },
    });
    expect(unknown.body.message).toBe(known.body.message);
    expect(unknown.jar.has('corridor_wallet_login')).toBe(known.jar.has('corridor_wallet_login'));
    await advance(p, 31);
    expect([(await begin(w.email)).status, (await begin(other)).status]).toEqual([200, 200]);
  });

  it('the same refusals: a wrong code, a code sealed elsewhere, a malformed proof, too many tries', async () => {
    await advance(p, 31);
    const w = await newWallet(p);
    const known = await begin(w.email);
    const unknown = await begin(stranger());
    const both = async (f: (s: typeof known) => Promise<{ status: number; body: unknown }>) => {
      const [a, b] = [await f(known), await f(unknown)];
      expect(b).toEqual(a);
      return a;
    };
    expect(await both((s) => tryCode(s, '123456'))).toMatchObject({
      status: 401,
      body: { details: { reason: 'Invalid OTP code' } },
    });
    const elsewhere = {
      ...known,
      body: { otpEncryptionTargetBundle: (await begin(stranger())).body.otpEncryptionTargetBundle },
    };
    const sealedElsewhere = await tryCode({ ...elsewhere, jar: known.jar }, '123456');
    expect(sealedElsewhere.status).toBe(401);
    expect(await tryCode({ ...elsewhere, jar: unknown.jar }, '123456')).toEqual(sealedElsewhere);
    const malformed = await both(async (s) => {
      current.jar = s.jar;
      return json(await verify(request('POST', '/sign-in/verify', { type: 'EMAIL_OTP' })));
    });
    expect(malformed.status).toBe(400);
    for (let i = 0; i < 3; i++) await both((s) => tryCode(s, '654321'));
    const [a, b] = [await tryCode(known, '111111'), await tryCode(unknown, '111111')];
    expect([a.status, b.status]).toEqual([429, 429]);
    expect((b.body as { code: string }).code).toBe((a.body as { code: string }).code);
  });

  it("a decoy never signs in, not even with the sandbox's code", async () => {
    await advance(p, 31);
    const unknown = await begin(stranger());
    const res = await tryCode(unknown, '000000');
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', details: { reason: 'Invalid OTP code' } } });
    expect(unknown.jar.has('corridor_wallet')).toBe(false);
  });
});
