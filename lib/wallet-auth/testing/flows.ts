import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import * as platforms from '@/lib/platform/repository';
import type { Api, ApiResponse, TestPlatform } from '@/tests/support/api';
import { encryptOtpBundle, googleClaims, newClientKey, oidcToken, sha256Hex, stamp, type ClientKey } from './client';
import { db } from '@/lib/core/db';
import { attest, type Passkey } from './passkey';

// Client-side flows the wallet-auth tests repeat: a customer with an embedded wallet, an OTP
// login walked as a client does it, a signed retry, and moving the platform's sandbox clock.
let n = 0;

export async function newWallet(p: TestPlatform, opts: { email?: string; phoneNumber?: string } = {}) {
  const email = opts.email ?? `holder-${process.pid}-${Date.now()}-${++n}@example.com`;
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Wallet Holder',
    email,
    ...(opts.phoneNumber ? { phoneNumber: opts.phoneNumber } : {}),
  });
  expect(c.status, c.text).toBe(201);
  const accounts = await p.api.get('/customers/internal-accounts', {
    query: { customerId: c.body.id, type: 'EMBEDDED_WALLET' },
  });
  expect(accounts.body.data).toHaveLength(1);
  const accountId: string = accounts.body.data[0].id;
  const creds = await p.api.get('/auth/credentials', { query: { accountId } });
  expect(creds.status).toBe(200);
  return { customerId: c.body.id as string, accountId, email, emailOtpId: creds.body.data[0].id as string };
}

/** Moves the platform's sandbox clock forward; takes effect from the next request. */
export async function advance(p: TestPlatform, seconds: number): Promise<void> {
  const row = await platforms.findWithConfig(p.platformId, db());
  await platforms.setClockOffset(p.platformId, (row?.clockOffsetMs ?? 0n) + BigInt(Math.round(seconds * 1000)));
}

export const signatureHeaders = (
  payloadToSign: string,
  key: ClientKey,
  requestId: string,
  header = 'Service-Wallet-Signature',
) => ({
  [header]: stamp(payloadToSign, key),
  'Request-Id': requestId,
});

/** First call (expects 202), then the same request stamped with `key`. */
export async function signed(
  api: Api,
  method: string,
  path: string,
  body: unknown,
  key: ClientKey,
): Promise<{ challenge: ApiResponse; res: ApiResponse }> {
  const challenge = await api.request(method, path, { body });
  expect(challenge.status, challenge.text).toBe(202);
  const res = await api.request(method, path, {
    body,
    headers: signatureHeaders(challenge.body.payloadToSign, key, challenge.body.requestId),
  });
  return { challenge, res };
}

/** Challenge → HPKE-sealed code → 202 → TEK-stamped retry → session. */
export async function otpLogin(
  api: Api,
  credentialId: string,
  opts: { code?: string; tek?: ClientKey; type?: 'EMAIL_OTP' | 'SMS_OTP'; targetBundle?: string } = {},
) {
  let bundle = opts.targetBundle;
  if (!bundle) {
    const ch = await api.post(`/auth/credentials/${credentialId}/challenge`);
    expect(ch.status, ch.text).toBe(200);
    bundle = ch.body.otpEncryptionTargetBundle as string;
  }
  const tek = opts.tek ?? newClientKey();
  const body = {
    type: opts.type ?? 'EMAIL_OTP',
    encryptedOtpBundle: await encryptOtpBundle(bundle, opts.code ?? '000000', tek),
  };
  const { challenge, res } = await signed(api, 'POST', `/auth/credentials/${credentialId}/verify`, body, tek);
  expect(res.status, res.text).toBe(200);
  return { session: res.body, key: tek, challenge: challenge.body, body };
}

/**
 * Registers passkeys with a wallet through the API, in order, on one email-code session (codes are
 * throttled to one per 30 s); answers their AuthMethod ids.
 */
export async function registerPasskeys(
  p: TestPlatform,
  wallet: { accountId: string; emailOtpId: string },
  passkeys: [Passkey, string][],
): Promise<string[]> {
  const { key } = await otpLogin(p.api, wallet.emailOtpId);
  const ids: string[] = [];
  for (const [passkey, nickname] of passkeys) {
    const challenge = randomBytes(32).toString('base64url');
    const attestation = attest(passkey, challenge);
    const body = { type: 'PASSKEY', accountId: wallet.accountId, nickname, challenge, attestation };
    const created = await signed(p.api, 'POST', '/auth/credentials', body, key);
    expect(created.res.status, created.res.text).toBe(201);
    ids.push(created.res.body.id as string);
  }
  return ids;
}

// The current time in whole seconds, as OIDC claims carry it.
export const nowS = () => Math.floor(Date.now() / 1000);

// Adds an OAUTH credential (Google, subject `sub`) with a retry signed by `key`'s session.
export async function addOauth(p: TestPlatform, accountId: string, key: Parameters<typeof signed>[4], sub = 'sub-1') {
  const { res } = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { type: 'OAUTH', accountId, oidcToken: await oidcToken(googleClaims(nowS(), { sub })) },
    key,
  );
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

// Signs in with an OAUTH credential: a new session and its client key.
export async function oauthLogin(p: TestPlatform, credentialId: string, sub = 'sub-1') {
  const key = newClientKey();
  const res = await p.api.post(`/auth/credentials/${credentialId}/verify`, {
    type: 'OAUTH',
    oidcToken: await oidcToken(googleClaims(nowS(), { sub, nonce: sha256Hex(key.publicKey) })),
    clientPublicKey: key.publicKey,
  });
  expect(res.status, res.text).toBe(200);
  return { session: res.body, key };
}
