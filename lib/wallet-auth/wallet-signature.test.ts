import { stampHeader } from './stamp';
import { beforeAll, expect, it } from 'vitest';
import { DomainError } from '@/lib/core/errors';
import { runAs } from '@/lib/core/context';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { newWallet, otpLogin, signatureHeaders, signed } from '@/lib/wallet-auth/testing/flows';
import { newClientKey, stamp, webCryptoKey, webCryptoStamp, type ClientKey } from '@/lib/wallet-auth/testing/client';
import { verifyWalletSignature, verifyWalletStamp } from './wallet-signature';
import { db } from '@/lib/core/db';

// The seam quote execution uses: a stamp over a payload the resource carries (no 202, no
// Request-Id), checked against the source wallet's active sessions.
const payload = JSON.stringify({
  type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
  parameters: { amount: 1000, quoteId: 'Quote:x' },
  timestampMs: '1',
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
}

let p: TestPlatform;
let w: Awaited<ReturnType<typeof newWallet>>;
let key: ClientKey;
let sessionId: string;
beforeAll(async () => {
  p = await newPlatform();
  w = await newWallet(p);
  const login = await otpLogin(p.api, w.emailOtpId);
  key = login.key;
  sessionId = login.session.id;
});

it('accepts a stamp over the exact payload by an active session of the source wallet', async () => {
  const res = await verifyWalletStamp({
    tx: db(),
    platformId: p.platformId,
    accountId: w.accountId,
    payload,
    stamp: stamp(payload, key),
  });
  expect(res).toEqual({ sessionId, publicKey: key.publicKey });
  expect(
    await codeOf(
      verifyWalletStamp({
        tx: db(),
        platformId: p.platformId,
        accountId: w.accountId,
        payload,
        stamp: stamp(payload, key, { highS: true }),
      }),
    ),
  ).toBe('OK');
});

it('names what is wrong: missing, malformed, other payload, unknown key, another wallet', async () => {
  const other = await newWallet(p);
  const otherKey = (await otpLogin(p.api, other.emailOtpId)).key;
  const base = { platformId: p.platformId, accountId: w.accountId, payload };
  expect(await codeOf(verifyWalletSignature({ tx: db(), ...base, stamp: stampHeader(new Headers()) }))).toBe(
    'WALLET_SIGNATURE_MISSING',
  );
  expect(
    await codeOf(
      verifyWalletSignature({
        tx: db(),
        ...base,
        stamp: stampHeader(new Headers({ 'Grid-Wallet-Signature': stamp(payload, key) })),
      }),
    ),
  ).toBe('OK');
  expect(await codeOf(verifyWalletStamp({ tx: db(), ...base, stamp: 'e30' }))).toBe('WALLET_SIGNATURE_MALFORMED');
  expect(
    await codeOf(verifyWalletStamp({ tx: db(), ...base, stamp: stamp(payload.replace('1000', '9000'), key) })),
  ).toBe('WALLET_SIGNATURE_INVALID');
  expect(await codeOf(verifyWalletStamp({ tx: db(), ...base, stamp: stamp(payload, newClientKey()) }))).toBe(
    'WALLET_SIGNATURE_INVALID',
  );
  expect(await codeOf(verifyWalletStamp({ tx: db(), ...base, stamp: stamp(payload, otherKey) }))).toBe(
    'WALLET_SIGNATURE_INVALID',
  );
  expect(
    await codeOf(
      verifyWalletStamp({
        tx: db(),
        ...base,
        platformId: (await newPlatform()).platformId,
        stamp: stamp(payload, key),
      }),
    ),
  ).toBe('WALLET_SIGNATURE_INVALID');
});

it('accepts a WebCrypto-made stamp from a session whose key came from WebCrypto', async () => {
  const wc = await webCryptoKey();
  const refresh = await p.api.post(`/auth/sessions/${sessionId}/refresh`, { clientPublicKey: wc.publicKey });
  const res = await p.api.post(
    `/auth/sessions/${sessionId}/refresh`,
    { clientPublicKey: wc.publicKey },
    { headers: signatureHeaders(refresh.body.payloadToSign, key, refresh.body.requestId) },
  );
  expect(res.status, res.text).toBe(201);
  for (let i = 0; i < 6; i++) {
    expect(
      await verifyWalletStamp({
        tx: db(),
        platformId: p.platformId,
        accountId: w.accountId,
        payload,
        stamp: await webCryptoStamp(payload, wc),
      }),
    ).toMatchObject({ sessionId: res.body.id });
  }
});

it('refuses sessions that expired (platform clock) or were revoked', async () => {
  const q = await newPlatform();
  const wq = await newWallet(q);
  const login = await otpLogin(q.api, wq.emailOtpId);
  const base = {
    platformId: q.platformId,
    accountId: wq.accountId,
    payload,
    stamp: stamp(payload, login.key),
    tx: db(),
  };
  expect(await codeOf(verifyWalletStamp(base))).toBe('OK');
  // Sixteen minutes later on this platform's clock the session is over.
  const later = {
    kind: 'system' as const,
    platformId: q.platformId,
    clockOffsetMs: 16n * 60_000n,
    clockFrozenAt: null,
  };
  expect(await runAs(later, () => codeOf(verifyWalletStamp(base)))).toBe('WALLET_SIGNATURE_INVALID');
  const { res } = await signed(q.api, 'DELETE', `/auth/sessions/${login.session.id}`, undefined, login.key);
  expect(res.status).toBe(204);
  expect(await codeOf(verifyWalletStamp(base))).toBe('WALLET_SIGNATURE_INVALID');
  expectError(
    (await signed(q.api, 'PATCH', `/internal-accounts/${wq.accountId}`, { privateEnabled: true }, login.key)).res,
    401,
    'WALLET_SIGNATURE_INVALID',
  );
});
