import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itWithReference } from '@/tests/support/needs-reference';
import { DomainError } from '@/lib/core/errors';
import { base58checkDecode, base58checkEncode, bytesToHex, hexToBytes } from './encoding';
import { decryptCredentialBundle, encryptCredentialBundle, hpkeSuite, openBase, sealBase } from './hpke';
import { parsePublicKey, publicKeyOf } from './p256';
import { parseStamp, stampSignsPayload } from '../../wallet-auth/stamp';
import {
  newClientKey,
  openSessionKeyBundle,
  stamp,
  stampOf,
  webCryptoKey,
  webCryptoStamp,
} from '@/lib/wallet-auth/testing/client';

// Known-answer tests for the wallet-auth cryptography, before any flow uses it. The vectors are
// reference material beside the project: without them those tests are skipped and named at the
// end of the run.
const VECTORS = 'hpke-vectors.json';
const vectorsIn = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const h = hexToBytes;

/** RFC 9180's vector: keys, enc, every ciphertext (in sequence), open, export. */
async function reproduceVector(file: string) {
  const v = vectorsIn(file).vector;
  expect([v.mode, v.kem_id, v.kdf_id, v.aead_id]).toEqual([0, 16, 1, 2]);
  const suite = hpkeSuite();
  const r = await suite.kem.deriveKeyPair(h(v.ikmR).slice().buffer);
  expect(bytesToHex(new Uint8Array(await suite.kem.serializePublicKey(r.publicKey)))).toBe(v.pkRm);
  expect(bytesToHex(new Uint8Array(await suite.kem.serializePrivateKey(r.privateKey)))).toBe(v.skRm);
  const e = await suite.kem.deriveKeyPair(h(v.ikmE).slice().buffer);
  // Each encryption of the vector is the sequence-n message of one context; seal them in order.
  const sender = await suite.createSenderContext({
    recipientPublicKey: r.publicKey,
    info: h(v.info).slice().buffer,
    ekm: e,
  });
  expect(bytesToHex(new Uint8Array(sender.enc))).toBe(v.enc);
  for (const enc of v.encryptions) {
    expect(bytesToHex(new Uint8Array(await sender.seal(h(enc.pt).slice().buffer, h(enc.aad).slice().buffer)))).toBe(
      enc.ct,
    );
  }
  const recipient = await suite.createRecipientContext({
    recipientKey: await suite.kem.importKey('raw', h(v.skRm).slice().buffer, false),
    enc: h(v.enc).slice().buffer,
    info: h(v.info).slice().buffer,
  });
  for (const enc of v.encryptions)
    expect(bytesToHex(new Uint8Array(await recipient.open(h(enc.ct).slice().buffer, h(enc.aad).slice().buffer)))).toBe(
      enc.pt,
    );
  expect(bytesToHex(new Uint8Array(await recipient.export(new Uint8Array().buffer, v.exports[0].L)))).toBe(
    v.exports[0].exported_value,
  );
}

describe('HPKE DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM, base mode', () => {
  itWithReference(
    VECTORS,
    'reproduces the RFC 9180 test vector (keys, enc, every ciphertext, export)',
    reproduceVector,
  );

  itWithReference(VECTORS, 'the one-shot helpers reproduce the first vector encryption and open it', async (file) => {
    const v = vectorsIn(file).vector;
    const e = await hpkeSuite().kem.deriveKeyPair(h(v.ikmE).slice().buffer);
    const first = v.encryptions[0];
    const sealed = await sealBase({
      recipientPublicKey: h(v.pkRm),
      plaintext: h(first.pt),
      info: h(v.info),
      aad: h(first.aad),
      ekm: e,
    });
    expect(bytesToHex(sealed.enc)).toBe(v.enc);
    expect(bytesToHex(sealed.ciphertext)).toBe(first.ct);
    expect(
      bytesToHex(
        await openBase({
          recipientSecretKey: h(v.skRm),
          enc: h(v.enc),
          ciphertext: h(first.ct),
          info: h(v.info),
          aad: h(first.aad),
        }),
      ),
    ).toBe(first.pt);
    await expect(
      openBase({
        recipientSecretKey: h(v.skRm),
        enc: h(v.enc),
        ciphertext: h(first.ct),
        info: h(v.info),
        aad: h('00'),
      }),
    ).rejects.toThrow();
  });

  itWithReference(VECTORS, 'decrypts the credential bundle produced by an independent implementation', async (file) => {
    const cb = vectorsIn(file).credential_bundle;
    const plaintext = await decryptCredentialBundle(cb.bundle, h(cb.recipientPrivateKey));
    expect(bytesToHex(plaintext)).toBe(cb.plaintext);
    // The plaintext is a P-256 session secret key; its public key is the published one.
    expect(publicKeyOf(plaintext).compressedHex).toBe(cb.derivedPublicKeyOfPlaintext);
    // Same bundle, other recipient: does not authenticate.
    await expect(decryptCredentialBundle(cb.bundle, newClientKey().secretKey)).rejects.toThrow();
  });

  it('seals credential bundles a client decrypts with its own code path', async () => {
    const client = newClientKey();
    const secret = newClientKey().secretKey;
    const bundle = await encryptCredentialBundle(secret, parsePublicKey(client.publicKeyUncompressed)!);
    expect(bytesToHex(await openSessionKeyBundle(bundle, client))).toBe(bytesToHex(secret));
    expect(bytesToHex(await decryptCredentialBundle(bundle, client.secretKey))).toBe(bytesToHex(secret));
  });
});

describe('base58check', () => {
  it('round-trips, keeps leading zero bytes and rejects a wrong checksum', () => {
    for (const payload of [h(''), h('00'), h('0000ff'), h('deadbeef'), h(`04${'ab'.repeat(64)}`)]) {
      expect(bytesToHex(base58checkDecode(base58checkEncode(payload)))).toBe(bytesToHex(payload));
    }
    // Bitcoin's well-known address of the all-zero hash160 with version 0.
    expect(base58checkEncode(new Uint8Array(21))).toBe('1111111111111111111114oLvT2');
    const good = base58checkEncode(h('0102030405'));
    const bad = good.slice(0, -1) + (good.endsWith('1') ? '2' : '1');
    expect(() => base58checkDecode(bad)).toThrow(/checksum/);
    expect(() => base58checkDecode('0OIl')).toThrow();
  });
});

describe('stamps', () => {
  const payload = '{"type":"ACTIVITY_TYPE_EXAMPLE","parameters":{"x":1},"timestampMs":"1"}';

  it('verifies stamps made with @noble/curves and with Node WebCrypto', async () => {
    const noble = newClientKey();
    const s1 = parseStamp(stamp(payload, noble));
    expect(s1.kind === 'stamp' && s1.publicKey).toBe(noble.publicKey);
    expect(s1.kind === 'stamp' && stampSignsPayload(s1, payload)).toBe(true);
    const wc = await webCryptoKey();
    for (let i = 0; i < 8; i++) {
      // WebCrypto leaves S unnormalized, so over several signatures both halves occur.
      const s2 = parseStamp(await webCryptoStamp(payload, wc));
      expect(s2.kind === 'stamp' && stampSignsPayload(s2, payload)).toBe(true);
    }
  });

  it('accepts high-S signatures and rejects any change to the payload', () => {
    const key = newClientKey();
    const high = parseStamp(stamp(payload, key, { highS: true }));
    expect(high.kind === 'stamp' && stampSignsPayload(high, payload)).toBe(true);
    expect(high.kind === 'stamp' && stampSignsPayload(high, payload.replace('1}', '2}'))).toBe(false);
    expect(high.kind === 'stamp' && stampSignsPayload(high, payload + ' ')).toBe(false);
  });

  it('parses the JSON rather than matching bytes: key order and whitespace are free', () => {
    const key = newClientKey();
    const sig = JSON.parse(Buffer.from(stamp(payload, key), 'base64url').toString()).signature;
    const reordered = Buffer.from(
      `{ "signature" : "${sig}",\n "scheme":"SIGNATURE_SCHEME_TK_API_P256", "publicKey":"${key.publicKey}" }`,
    ).toString('base64url');
    const s = parseStamp(reordered);
    expect(s.kind === 'stamp' && stampSignsPayload(s, payload)).toBe(true);
    // An uncompressed key names the same session key.
    const s3 = parseStamp(stampOf(key.publicKeyUncompressed, sig));
    expect(s3.kind === 'stamp' && s3.publicKey).toBe(key.publicKey);
  });

  it.each([
    ['not base64url', '***', 'not base64url-encoded JSON'],
    ['not JSON', Buffer.from('hello').toString('base64url'), 'not base64url-encoded JSON'],
    ['an array', Buffer.from('[]').toString('base64url'), 'not a JSON object'],
    [
      'wrong scheme',
      stampOf(newClientKey().publicKey, '3006020101020101', { scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1' }),
      'scheme',
    ],
    [
      'missing key',
      Buffer.from(JSON.stringify({ scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '00' })).toString('base64url'),
      'publicKey is missing',
    ],
    ['key off the curve', stampOf('02' + 'ff'.repeat(32), '3006020101020101'), 'not a P-256 public key'],
    ['signature not hex', stampOf(newClientKey().publicKey, 'zz'), 'signature is not hex'],
    ['signature not DER', stampOf(newClientKey().publicKey, 'abcd'), 'not a DER'],
  ])('rejects a stamp that is %s as WALLET_SIGNATURE_MALFORMED', (_what, value, reason) => {
    try {
      parseStamp(value);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('WALLET_SIGNATURE_MALFORMED');
      expect(String((err as DomainError).details?.reason)).toContain(reason);
    }
  });
});
