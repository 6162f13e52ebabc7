import { beforeAll, beforeEach, expect } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { POST as start } from '@/app/wallet/api/sign-in/start/route';
import { POST as verify } from '@/app/wallet/api/sign-in/verify/route';
import { encryptOtpBundle, newClientKey, stamp, type ClientKey } from '@/lib/wallet-auth/testing/client';
import { current, CookieJar } from './cookie-jar';

// The browser side of the wallet pages for tests of their route handlers: requests as the page
// sends them, and the email-code sign-in it walks. The test file mocks next/headers with
// `current` (vi.mock('next/headers', ...)).
export const ORIGIN = 'http://localhost:3000';

export function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}/wallet/api${path}`, {
    method,
    headers: {
      host: 'localhost:3000',
      ...(method === 'GET' ? {} : { origin: ORIGIN, 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export const json = async (res: Response) => ({
  status: res.status,
  body: res.status === 204 ? null : await res.json(),
});

let n = 0;
/** An email no customer has. */
export const stranger = () => `nobody-${process.pid}-${Date.now()}-${++n}@example.com`;

/** A sign-in start as a browser of its own; the answer and the login cookie it got. */
export async function begin(email: string, method = 'EMAIL_OTP', extra: Record<string, unknown> = {}) {
  const jar = new CookieJar();
  current.jar = jar;
  const res = await json(await start(request('POST', '/sign-in/start', { email, method, ...extra })));
  return { ...res, jar, cookie: jar.get('corridor_wallet_login')?.value ?? '' };
}

/** Email-code sign-in as the browser does it; returns the browser's jar and its session key. */
export async function signIn(email: string): Promise<{ jar: CookieJar; key: ClientKey }> {
  const jar = new CookieJar();
  current.jar = jar;
  const started = await json(await start(request('POST', '/sign-in/start', { email, method: 'EMAIL_OTP' })));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const key = newClientKey();
  const body = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(started.body.otpEncryptionTargetBundle, '000000', key),
  };
  const challenge = await json(await verify(request('POST', '/sign-in/verify', body)));
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(202);
  const done = await json(
    await verify(
      request('POST', '/sign-in/verify', body, {
        'service-wallet-signature': stamp(challenge.body.payloadToSign, key),
        'request-id': challenge.body.requestId,
      }),
    ),
  );
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { jar, key };
}

/**
 * The test file's own platform, made the wallet pages' platform, and a new browser (cookie jar)
 * for each test. Read `.p` inside tests (it is set once the file's tests start).
 */
export function walletPlatform(): { p: TestPlatform } {
  const ref = {} as { p: TestPlatform };
  beforeAll(async () => {
    ref.p = await newPlatform();
    process.env.CORRIDOR_WALLET_PLATFORM_ID = ref.p.platformId;
  });
  beforeEach(() => {
    current.jar = new CookieJar();
  });
  return ref;
}
