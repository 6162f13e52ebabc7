import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { outboxOf } from '@/lib/notify/sender';
import { unseal } from '@/lib/core/crypto/vault';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { registerFundingSourceLookup } from './delegated-keys';
import { newWallet, otpLogin, signatureHeaders, signed } from './testing/flows';
import {
  clientKeyFromSecret,
  googleClaims,
  newClientKey,
  oidcToken,
  openEnvelope,
  openSessionKeyBundle,
  sha256Hex,
  type ClientKey,
} from './testing/client';
import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { switchMode } from '@/tests/support/mode';

// Secrets at rest: after real flows (production-mode OTP codes, client keys, a legacy session key
// the service generated, a custodied delegated key, OTP target keys, a wallet secret), no table
// holds any of them in any usual encoding.
const forms = (secret: Uint8Array) => {
  const b = Buffer.from(secret);
  return [b.toString('hex'), b.toString('hex').toUpperCase(), b.toString('base64'), b.toString('base64url')];
};

async function databaseText(): Promise<string> {
  const tables = await db().$queryRawUnsafe<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await db().$queryRawUnsafe<{ j: string }[]>(`SELECT row_to_json(t)::text AS j FROM "${table_name}" t`);
    parts.push(...rows.map((r) => r.j));
  }
  return parts.join('\n');
}

type Wallet = Awaited<ReturnType<typeof newWallet>>;

// OAUTH in the legacy flow: the service generated this session's key and must have forgotten it.
// Returns the client's key and the session key it was sent.
async function legacyOauthSecrets(p: TestPlatform, w: Wallet, key: ClientKey): Promise<Uint8Array[]> {
  const nowS = Math.floor(Date.now() / 1000);
  const oauth = await signed(
    p.api,
    'POST',
    '/auth/credentials',
    { type: 'OAUTH', accountId: w.accountId, oidcToken: await oidcToken(googleClaims(nowS)) },
    key,
  );
  const client = newClientKey();
  const v = await p.api.post(`/auth/credentials/${oauth.res.body.id}/verify`, {
    type: 'OAUTH',
    oidcToken: await oidcToken(googleClaims(nowS, { nonce: sha256Hex(client.publicKeyUncompressed) })),
    clientPublicKey: client.publicKeyUncompressed,
  });
  const legacySecret = await openSessionKeyBundle(v.body.encryptedSessionSigningKey, client);
  expect(
    (
      await signed(
        p.api,
        'PATCH',
        `/internal-accounts/${w.accountId}`,
        { privateEnabled: true },
        clientKeyFromSecret(legacySecret),
      )
    ).res.status,
  ).toBe(200);
  return [client.secretKey, legacySecret];
}

// A delegated key the service custodies; returns its row.
async function custodiedDelegatedKey(p: TestPlatform, w: Wallet, key: ClientKey) {
  const cardId = `Card:${crypto.randomUUID()}`;
  registerFundingSourceLookup(async (_p, card) =>
    card === cardId ? { fundingSourceId: 'CardFundingSource:secrets' } : null,
  );
  const dk = await signed(
    p.api,
    'POST',
    '/auth/delegated-keys',
    { cardId, internalAccountId: w.accountId, nickname: 'k' },
    key,
  );
  const leg3 = await p.api.post(
    '/auth/delegated-keys',
    { cardId, internalAccountId: w.accountId, nickname: 'k' },
    { headers: signatureHeaders(dk.res.body.payloadToSign, key, dk.res.body.requestId) },
  );
  expect(leg3.status).toBe(201);
  return db().delegatedKey.findUniqueOrThrow({ where: { id: leg3.body.id } });
}

afterAll(() => {
  switchMode('sandbox');
  registerFundingSourceLookup(async () => null);
});

it('keeps OTP codes, session keys, target keys, delegated keys and wallet secrets out of the database', async () => {
  const p = await newPlatform();
  await p.api.patch('/config', { embeddedWalletConfig: { otpLength: 8, alphanumeric: true } });
  const w = await newWallet(p, { phoneNumber: '+14155550199' });
  const secrets: Uint8Array[] = [];
  const codes: string[] = [];

  switchMode('production');
  const ch = await p.api.post(`/auth/credentials/${w.emailOtpId}/challenge`);
  codes.push(/code is ([A-Z0-9]+)\./.exec(outboxOf(p.platformId, w.email).at(-1)!.text)![1]);
  const email = await otpLogin(p.api, w.emailOtpId, {
    code: codes[0],
    targetBundle: ch.body.otpEncryptionTargetBundle,
  });
  secrets.push(email.key.secretKey);
  const sms = await signed(p.api, 'POST', '/auth/credentials', { type: 'SMS_OTP', accountId: w.accountId }, email.key);
  codes.push(/code is ([A-Z0-9]+)\./.exec(outboxOf(p.platformId, '+14155550199').at(-1)!.text)![1]);
  const smsLogin = await otpLogin(p.api, sms.res.body.id, {
    type: 'SMS_OTP',
    code: codes[1],
    targetBundle: sms.res.body.otpEncryptionTargetBundle,
  });
  secrets.push(smsLogin.key.secretKey);
  switchMode('sandbox');

  secrets.push(...(await legacyOauthSecrets(p, w, email.key)));
  const dkRow = await custodiedDelegatedKey(p, w, email.key);
  secrets.push(unseal(dkRow.secretKeySealed!, `delegated-key:${dkRow.id}`));

  // OTP target keys (sealed until the code is checked) and the wallet secret.
  for (const row of await db().otpChallenge.findMany({ where: { platformId: p.platformId } }))
    secrets.push(unseal(row.targetSecretKeySealed, `otp-target:${row.id}`));
  const exportKey = newClientKey();
  const exported = await signed(
    p.api,
    'POST',
    `/internal-accounts/${w.accountId}/export`,
    { clientPublicKey: exportKey.publicKeyUncompressed },
    email.key,
  );
  const mnemonic = new TextDecoder().decode(
    await openEnvelope(exported.res.body.encryptedWalletCredentials, exportKey),
  );
  secrets.push(Buffer.from(mnemonicToEntropy(mnemonic, wordlist)), Buffer.from(mnemonic));

  const text = await databaseText();
  expect(text).toContain(w.accountId); // the dump is real
  expect(text).toContain(email.key.publicKey); // public halves are stored, as they should be
  for (const code of codes) {
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(text.includes(code), `OTP code ${code} found in the database`).toBe(false);
  }
  expect(secrets.length).toBeGreaterThanOrEqual(7);
  for (const secret of secrets) {
    for (const form of forms(secret)) expect(text.includes(form), `secret ${form} found in the database`).toBe(false);
  }
  expect(text.includes(mnemonic), 'the wallet mnemonic found in the database').toBe(false);
  // A random control value is of course absent too, and a stored value is found: the scan is not vacuous.
  expect(text.includes(randomBytes(16).toString('hex'))).toBe(false);
  expect(text.includes(dkRow.publicKey)).toBe(true);
});
