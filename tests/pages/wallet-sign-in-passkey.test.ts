import { randomBytes } from 'node:crypto';
import { beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { SANDBOX_PASSKEY_SIGNATURE } from '@/lib/wallet-auth/login';
import { newClientKey } from '@/lib/wallet-auth/testing/client';
import { newWallet, otpLogin, signed } from '@/lib/wallet-auth/testing/flows';
import { assert, attest, newPasskey, type Passkey } from '@/lib/wallet-auth/testing/passkey';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { current, CookieJar } from './cookie-jar';
import { begin, json, request, stranger } from './wallet-client';

vi.mock('next/headers', () => ({ cookies: async () => current.jar, headers: async () => current.headers }));

// Issue 23, finding 8, for passkeys: a passkey sign-in answers a wallet with a passkey, one
// without and an email with no wallet alike (a decoy passkey no authenticator holds), refuses
// their proofs alike, and a decoy never signs in.
const { POST: verify } = await import('@/app/wallet/api/sign-in/verify/route');

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  process.env.CORRIDOR_WALLET_PLATFORM_ID = p.platformId;
});
beforeEach(() => {
  current.jar = new CookieJar();
});

let w: Awaited<ReturnType<typeof newWallet>>;
let pk: Passkey;
beforeAll(async () => {
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
  expect((await signed(p.api, 'POST', '/auth/credentials', body, key)).res.status).toBe(201);
});

/** The passkey's answer with a key that is not the passkey's: what anyone without it can send. */
async function forged(s: Awaited<ReturnType<typeof begin>>, credentialId = s.body.credentialId) {
  current.jar = s.jar;
  const assertion = assert({ ...newPasskey(), credentialId: Buffer.from(credentialId, 'base64url') }, s.body.challenge);
  return json(
    await verify(
      request('POST', '/sign-in/verify', { type: 'PASSKEY', assertion }, { 'request-id': s.body.requestId }),
    ),
  );
}

it('same status and body shape for a wallet with a passkey, one without, and no wallet', async () => {
  const emails = [w.email, (await newWallet(p)).email, stranger()];
  const starts = [];
  for (const email of emails) starts.push(await begin(email, 'PASSKEY', { clientPublicKey: newClientKey().publicKey }));
  for (const s of starts) {
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(Object.keys(s.body).sort()).toEqual(['challenge', 'credentialId', 'method', 'requestId', 'rpId']);
    expect(s.body.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(s.body.requestId).toMatch(/^Request:[0-9a-f-]{36}$/);
    expect(s.body.credentialId).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(s.cookie.length).toBe(starts[0].cookie.length);
  }
  expect(starts[0].body.credentialId).toBe(Buffer.from(pk.credentialId).toString('base64url'));
  // Asked again, an email names the same credential, whether it has one or not.
  for (const [i, email] of emails.entries()) {
    const again = await begin(email, 'PASSKEY', { clientPublicKey: newClientKey().publicKey });
    expect(again.body.credentialId).toBe(starts[i].body.credentialId);
  }
});

it('the same refusals for a forged assertion, another credential and a bad key', async () => {
  const known = await begin(w.email, 'PASSKEY', { clientPublicKey: newClientKey().publicKey });
  const unknown = await begin(stranger(), 'PASSKEY', { clientPublicKey: newClientKey().publicKey });
  const a = await forged(known);
  expect(a).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  expect(await forged(unknown)).toEqual(a);
  const other = Buffer.from(newPasskey().credentialId).toString('base64url');
  const b = await forged(await begin(w.email, 'PASSKEY', { clientPublicKey: newClientKey().publicKey }), other);
  expect(
    await forged(await begin(stranger(), 'PASSKEY', { clientPublicKey: newClientKey().publicKey }), other),
  ).toEqual(b);
  const badKey = await begin(w.email, 'PASSKEY', { clientPublicKey: 'not-a-key' });
  expect(badKey.status).toBe(400);
  expect(await begin(stranger(), 'PASSKEY', { clientPublicKey: 'not-a-key' })).toMatchObject({
    status: 400,
    body: badKey.body,
  });
});

it("a decoy never signs in, not even with the sandbox's legacy signature", async () => {
  const unknown = await begin(stranger(), 'PASSKEY', { clientPublicKey: newClientKey().publicKey });
  const assertion = {
    ...assert(newPasskey(), unknown.body.challenge),
    credentialId: unknown.body.credentialId,
    signature: SANDBOX_PASSKEY_SIGNATURE,
  };
  current.jar = unknown.jar;
  const res = await json(
    await verify(
      request('POST', '/sign-in/verify', { type: 'PASSKEY', assertion }, { 'request-id': unknown.body.requestId }),
    ),
  );
  expect(res.status).toBe(401);
  expect(unknown.jar.has('corridor_wallet')).toBe(false);
});
