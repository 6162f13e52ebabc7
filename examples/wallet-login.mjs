// An embedded-wallet client in Node: signs a customer in with the email one-time code, then uses
// the session for signed actions: exporting the wallet's recovery phrase, paying from the wallet
// (when a destination account is given: $10.00 from a USD wallet) and signing out.
//
//   node examples/wallet-login.mjs <EMBEDDED_WALLET InternalAccount id> [destination account id]
//
// CLIENT_ID, CLIENT_SECRET and API as for the shell guides. In sandbox the code is always 000000;
// outside sandbox the customer reads it from the email and your client asks them for it (set
// WALLET_OTP_CODE). Exits 1 when a step fails.
//
// Cryptography (the same as the /wallet pages do in the browser, components/wallet/crypto.ts):
// - the session key is a P-256 key made here; the service knows it by its compressed public key;
// - the code is sealed with HPKE (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, info
//   "turnkey_hpke", associated data = encapsulated key || target key) to the credential's target;
// - a stamp is base64url(JSON {publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature}),
//   the signature being DER ECDSA P-256/SHA-256 over the exact payloadToSign string.
import { webcrypto as crypto } from 'node:crypto';
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';

const [accountId, payTo] = process.argv.slice(2);
const { CLIENT_ID, CLIENT_SECRET } = process.env;
if (!accountId || !CLIENT_ID || !CLIENT_SECRET) {
  console.error('usage: CLIENT_ID=... CLIENT_SECRET=... node examples/wallet-login.mjs <InternalAccount:...>');
  process.exit(1);
}
const API = process.env.API ?? 'http://localhost:3000/api/2025-10-13';
const OTP = process.env.WALLET_OTP_CODE ?? '000000';

const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
const INFO = new TextEncoder().encode('turnkey_hpke');
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const concat = (...parts) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** Calls the platform API; returns {status, body}. Any status outside `expect` is an error. */
async function call(method, path, { body, headers = {}, expect = [200] } = {}) {
  const res = await fetch(`${API}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A session key: P-256, known to the service by its compressed SEC1 public key (hex). */
async function newSessionKey() {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const compressed = concat([raw[64] & 1 ? 3 : 2], raw.subarray(1, 33));
  return { pair, publicKey: hex(compressed) };
}

/** DER SEQUENCE of two INTEGERs from WebCrypto's raw r||s signature. */
function der(raw) {
  const int = (b) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    let v = b.subarray(i);
    if (v[0] & 0x80) v = concat([0], v);
    return concat([0x02, v.length], v);
  };
  const body = concat(int(raw.subarray(0, 32)), int(raw.subarray(32)));
  return concat([0x30, body.length], body);
}

/** The Service-Wallet-Signature header: a stamp over the exact payload by the session key. */
async function stamp(payload, key) {
  const raw = new Uint8Array(
    await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      key.pair.privateKey,
      new TextEncoder().encode(payload),
    ),
  );
  const json = JSON.stringify({
    publicKey: key.publicKey,
    scheme: 'SIGNATURE_SCHEME_TK_API_P256',
    signature: hex(der(raw)),
  });
  return Buffer.from(json).toString('base64url');
}

/** encryptedOtpBundle: {"otp_code","public_key"} sealed to the target key of the challenge's bundle. */
async function sealOtp(targetBundle, code, key) {
  const { targetPublic } = JSON.parse(Buffer.from(JSON.parse(targetBundle).data, 'hex').toString('utf8'));
  const target = unhex(targetPublic);
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(target.slice().buffer),
    info: INFO,
  });
  const enc = new Uint8Array(sender.enc);
  const plaintext = new TextEncoder().encode(JSON.stringify({ otp_code: code, public_key: key.publicKey }));
  const ciphertext = new Uint8Array(await sender.seal(plaintext, concat(enc, target)));
  return JSON.stringify({ encappedPublic: hex(enc), ciphertext: hex(ciphertext) });
}

/** A signed-retry operation: the first call answers 202 with payloadToSign; the stamped retry does it. */
async function signed(method, path, body, key, expect = [200]) {
  const first = await call(method, path, { body, expect: [202] });
  const { payloadToSign, requestId } = first.body;
  return call(method, path, {
    body,
    headers: { 'Service-Wallet-Signature': await stamp(payloadToSign, key), 'Request-Id': requestId },
    expect,
  });
}

try {
  // 1. The account's EMAIL_OTP credential (every embedded wallet starts with one).
  const credentials = await call('GET', `/auth/credentials?accountId=${encodeURIComponent(accountId)}`);
  const emailOtp = credentials.body.data.find((c) => c.type === 'EMAIL_OTP');
  if (!emailOtp) throw new Error(`no EMAIL_OTP credential on ${accountId}`);

  // 2. A challenge: the code goes to the customer's email; the answer carries the target key.
  const challenge = await call('POST', `/auth/credentials/${emailOtp.id}/challenge`);

  // 3. Verify: the sealed code, then the same request stamped by the new session key.
  const key = await newSessionKey();
  const verifyBody = {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await sealOtp(challenge.body.otpEncryptionTargetBundle, OTP, key),
  };
  const session = (await signed('POST', `/auth/credentials/${emailOtp.id}/verify`, verifyBody, key)).body;
  console.log(`signed in: ${session.id}, expires ${session.expiresAt}`);

  // 4. A signed action: export the wallet, sealed to a one-off key made here, and open it.
  const exportKey = await suite.kem.generateKeyPair();
  const exportPublic = new Uint8Array(await suite.kem.serializePublicKey(exportKey.publicKey));
  const exported = await signed(
    'POST',
    `/internal-accounts/${accountId}/export`,
    { clientPublicKey: hex(exportPublic) },
    key,
  );
  const inner = JSON.parse(
    Buffer.from(JSON.parse(exported.body.encryptedWalletCredentials).data, 'hex').toString('utf8'),
  );
  const enc = unhex(inner.encappedPublic);
  const opener = await suite.createRecipientContext({ recipientKey: exportKey, enc: enc.slice().buffer, info: INFO });
  const phrase = new TextDecoder().decode(await opener.open(unhex(inner.ciphertext), concat(enc, exportPublic)));
  console.log(`recovery phrase opened on this machine: ${phrase.split(' ').length} words`);

  // 5. Paying from the wallet: the quote carries a payloadToSign in its payment instructions;
  //    executing it needs the holder's stamp over it (no Request-Id: the quote is the challenge).
  if (payTo) {
    const quote = await call('POST', '/quotes', {
      body: {
        source: { sourceType: 'ACCOUNT', accountId },
        destination: { destinationType: 'ACCOUNT', accountId: payTo },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
      },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      expect: [200, 201],
    });
    const payload = quote.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign;
    const executed = await call('POST', `/quotes/${quote.body.id}/execute`, {
      headers: { 'Service-Wallet-Signature': await stamp(payload, key), 'Idempotency-Key': crypto.randomUUID() },
    });
    console.log(`paid from the wallet: ${executed.body.transactionId} (${executed.body.status})`);
  }

  // 6. Sign out: revoking the session is signed too.
  await signed('DELETE', `/auth/sessions/${session.id}`, undefined, key, [204]);
  console.log('signed out');
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
}
