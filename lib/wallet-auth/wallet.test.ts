import { afterEach, beforeAll, expect, it } from 'vitest';
import { p256 } from '@noble/curves/nist.js';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { newWallet, otpLogin, signatureHeaders, signed } from './testing/flows';
import { newClientKey, openEnvelope, type ClientKey } from './testing/client';
import { mnemonicToEntropy, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { switchMode } from '@/tests/support/mode';

// Wallet actions under the signed retry: export (HPKE envelope) and privacy.
let p: TestPlatform;
let w: Awaited<ReturnType<typeof newWallet>>;
let key: ClientKey;
beforeAll(async () => {
  p = await newPlatform();
  w = await newWallet(p);
  key = (await otpLogin(p.api, w.emailOtpId)).key;
});
afterEach(() => {
  switchMode('sandbox');
});

it('exports the wallet mnemonic sealed to a fresh client key, which the payload binds', async () => {
  const client = newClientKey();
  const path = `/internal-accounts/${w.accountId}/export`;
  const { challenge, res } = await signed(p.api, 'POST', path, { clientPublicKey: client.publicKeyUncompressed }, key);
  expect(challenge.body.type).toBeUndefined();
  expect(JSON.parse(challenge.body.payloadToSign)).toMatchObject({
    type: 'ACTIVITY_TYPE_EXPORT_WALLET',
    parameters: { targetPublicKey: client.publicKeyUncompressed, walletId: w.accountId },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.id).toBe(w.accountId);
  const envelope = JSON.parse(res.body.encryptedWalletCredentials);
  expect(envelope).toMatchObject({ version: 'v1.0.0', dataSignature: '', enclaveQuorumPublic: '' });
  expect(JSON.parse(Buffer.from(envelope.data, 'hex').toString())).toMatchObject({
    encappedPublic: expect.stringMatching(/^04[0-9a-f]{128}$/),
    organizationId: p.platformId,
  });
  const secret = new TextDecoder().decode(await openEnvelope(res.body.encryptedWalletCredentials, client));
  // A BIP-39 mnemonic of 256-bit entropy: 24 English words with a valid checksum.
  expect(secret.split(' ')).toHaveLength(24);
  expect(validateMnemonic(secret, wordlist)).toBe(true);
  expect(mnemonicToEntropy(secret, wordlist)).toHaveLength(32);

  // The same wallet exports the same secret (to another key), and the signed key must be the one used.
  const other = newClientKey();
  const ch = await p.api.post(path, { clientPublicKey: other.publicKeyUncompressed });
  const swapped = await p.api.post(
    path,
    { clientPublicKey: newClientKey().publicKeyUncompressed },
    { headers: signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId) },
  );
  expectError(swapped, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
  switchMode('production');
  const again = await p.api.post(
    path,
    { clientPublicKey: other.publicKeyUncompressed },
    { headers: signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId) },
  );
  expect(again.status, again.text).toBe(200);
  expect(new TextDecoder().decode(await openEnvelope(again.body.encryptedWalletCredentials, other))).toBe(secret);
  // Outside sandbox the envelope is signed by the service's bundle key.
  const signedEnvelope = JSON.parse(again.body.encryptedWalletCredentials);
  expect(
    p256.verify(
      Buffer.from(signedEnvelope.dataSignature, 'hex'),
      Buffer.from(signedEnvelope.data, 'hex'),
      Buffer.from(signedEnvelope.enclaveQuorumPublic, 'hex'),
      { prehash: true, format: 'der', lowS: false },
    ),
  ).toBe(true);
});

it('refuses export input that is not an uncompressed P-256 key, and accounts that are not embedded wallets', async () => {
  const path = `/internal-accounts/${w.accountId}/export`;
  expectError(await p.api.post(path, { clientPublicKey: newClientKey().publicKey }), 400, 'INVALID_INPUT');
  expectError(await p.api.post(path, { clientPublicKey: '04' + 'ff'.repeat(64) }), 400, 'INVALID_INPUT');
  expectError(await p.api.post(path, {}), 400, 'INVALID_INPUT');
  expectError(
    await p.api.post('/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000000/export', {
      clientPublicKey: newClientKey().publicKeyUncompressed,
    }),
    404,
    'REFERENCE_NOT_FOUND',
  );
  const c = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Fiat Only',
    currencies: ['USD'],
  });
  const fiat = (await p.api.get('/customers/internal-accounts', { query: { customerId: c.body.id } })).body.data[0];
  expectError(
    await p.api.post(`/internal-accounts/${fiat.id}/export`, {
      clientPublicKey: newClientKey().publicKeyUncompressed,
    }),
    400,
    'INVALID_INPUT',
  );
  expectError(await p.api.patch(`/internal-accounts/${fiat.id}`, { privateEnabled: true }), 400, 'INVALID_INPUT');
  const viewer = await p.withPermissions('VIEW', 'TRANSACT');
  expectError(await viewer.post(path, { clientPublicKey: newClientKey().publicKeyUncompressed }), 403, 'FORBIDDEN');
});

it('changes privacy on the signed retry only, with the fields bound at the challenge', async () => {
  const path = `/internal-accounts/${w.accountId}`;
  expectError(await p.api.patch(path, {}), 400, 'INVALID_INPUT');
  const ch = await p.api.patch(path, { privateEnabled: true });
  expect(ch.status).toBe(202);
  expect(JSON.parse(ch.body.payloadToSign)).toMatchObject({
    type: 'ACTIVITY_TYPE_UPDATE_WALLET',
    parameters: { privateEnabled: true },
  });
  const before = await p.api.get('/customers/internal-accounts', {
    query: { customerId: w.customerId, type: 'EMBEDDED_WALLET' },
  });
  expect(before.body.data[0].privateEnabled).toBe(false);
  expectError(
    await p.api.patch(
      path,
      { privateEnabled: false },
      { headers: signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId) },
    ),
    401,
    'WALLET_SIGNATURE_BODY_MISMATCH',
  );
  const res = await p.api.patch(
    path,
    { privateEnabled: true },
    { headers: signatureHeaders(ch.body.payloadToSign, key, ch.body.requestId) },
  );
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ id: w.accountId, type: 'EMBEDDED_WALLET', privateEnabled: true });
});

it('accepts the legacy literal wallet signature in sandbox only, still bound to a pending request', async () => {
  const path = `/internal-accounts/${w.accountId}`;
  const ch = await p.api.patch(path, { privateEnabled: false });
  const ok = await p.api.patch(
    path,
    { privateEnabled: false },
    { headers: { 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': ch.body.requestId } },
  );
  expect(ok.status, ok.text).toBe(200);
  expectError(
    await p.api.patch(
      path,
      { privateEnabled: false },
      { headers: { 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': ch.body.requestId } },
    ),
    401,
    'UNAUTHORIZED',
  );
  const ch2 = await p.api.patch(path, { privateEnabled: true });
  switchMode('production');
  expectError(
    await p.api.patch(
      path,
      { privateEnabled: true },
      { headers: { 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': ch2.body.requestId } },
    ),
    401,
    'WALLET_SIGNATURE_MALFORMED',
  );
  // A wallet without any active session cannot be signed for, even with the literal.
  switchMode('sandbox');
  const fresh = await newWallet(p);
  const ch3 = await p.api.patch(`/internal-accounts/${fresh.accountId}`, { privateEnabled: true });
  expectError(
    await p.api.patch(
      `/internal-accounts/${fresh.accountId}`,
      { privateEnabled: true },
      { headers: { 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': ch3.body.requestId } },
    ),
    401,
    'WALLET_SIGNATURE_INVALID',
  );
});
