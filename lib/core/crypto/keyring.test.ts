import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { keyId, keyring, loadKeyring, MasterKeyError, open, resetKeyring, seal } from './master-key';
import { formatKeyFile, writeKeyFile } from './keyring.mjs';
import { SCHEMES } from './sealed-columns.mjs';
import { tag, unseal } from './vault';

// The master keys (lib/core/crypto/keyring.mjs): where they come from, the one envelope format
// (version and key id), the older formats still opened, 16-byte GCM tags only, several keys at
// once, a key file changed under a running process, and the hash key that rotation leaves alone.
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'corridor-key-'));
  dirs.push(d);
  return d;
};
const envBefore = { ...process.env };
/** Points this process at other keys (the environment, or a key file when `key` is absent). */
function useKeys(env: Record<string, string | undefined>) {
  for (const k of ['CORRIDOR_SECRET_KEY', 'CORRIDOR_OTHER_SECRET_KEYS', 'CORRIDOR_HASH_KEY', 'CORRIDOR_DATA_DIR'])
    delete process.env[k];
  Object.assign(process.env, env);
  resetKeyring();
}
afterEach(() => useKeys(envBefore));
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const hex = (b: Buffer) => b.toString('hex');
const subkey = (master: Buffer, s: { salt: string; info: string }) =>
  Buffer.from(hkdfSync('sha256', master, s.salt, s.info, 32));

describe('where the keys come from', () => {
  it('reads CORRIDOR_SECRET_KEY as 64 hex characters or base64, and refuses anything but 32 bytes', () => {
    const raw = randomBytes(32);
    for (const text of [hex(raw), raw.toString('base64'), raw.toString('base64url')])
      expect(loadKeyring({ CORRIDOR_SECRET_KEY: text }).current.key.equals(raw)).toBe(true);
    expect(() => loadKeyring({ CORRIDOR_SECRET_KEY: 'ab'.repeat(16) })).toThrow(MasterKeyError);
    expect(() => loadKeyring({ CORRIDOR_SECRET_KEY: randomBytes(31).toString('base64') })).toThrow(/32 bytes/);
    expect(() => loadKeyring({ CORRIDOR_SECRET_KEY: 'not a key!' })).toThrow(MasterKeyError);
  });

  it('with one environment key, that key also keys the hashes (as before keys rotated)', () => {
    const raw = randomBytes(32);
    const ring = loadKeyring({ CORRIDOR_SECRET_KEY: hex(raw) });
    expect(ring.hashKey.equals(raw)).toBe(true);
    const other = randomBytes(32);
    const hash = randomBytes(32);
    const rotated = loadKeyring({
      CORRIDOR_SECRET_KEY: hex(other),
      CORRIDOR_OTHER_SECRET_KEYS: ` ${hex(raw)} ,`,
      CORRIDOR_HASH_KEY: hex(hash),
    });
    expect(rotated.keys.map((k) => k.id)).toEqual([keyId(other), keyId(raw)]);
    expect(rotated.current.id).toBe(keyId(other));
    expect(rotated.hashKey.equals(hash)).toBe(true);
    // Once there are other keys the hash key must be named, or every stored hash would stop matching.
    expect(() => loadKeyring({ CORRIDOR_SECRET_KEY: hex(other), CORRIDOR_OTHER_SECRET_KEYS: hex(raw) })).toThrow(
      /CORRIDOR_HASH_KEY must be set/,
    );
  });

  it('when unset, generates ${CORRIDOR_DATA_DIR}/secret.key (0600) once: a key and a hash key of its own', () => {
    const dir = path.join(tempDir(), 'nested');
    const first = loadKeyring({ CORRIDOR_DATA_DIR: dir });
    const file = path.join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`key ${hex(first.current.key)}`);
    expect(text).toContain(`hash ${hex(first.hashKey)}`);
    expect(first.hashKey.equals(first.current.key)).toBe(false);
    const again = loadKeyring({ CORRIDOR_DATA_DIR: dir });
    expect(again.current.key.equals(first.current.key) && again.hashKey.equals(first.hashKey)).toBe(true);
    const env = randomBytes(32);
    expect(loadKeyring({ CORRIDOR_DATA_DIR: dir, CORRIDOR_SECRET_KEY: hex(env) }).current.key.equals(env)).toBe(true);
  });

  it('reads a key file written before keys rotated (one bare key: the key and the hash key)', () => {
    const dir = tempDir();
    const raw = randomBytes(32);
    writeFileSync(path.join(dir, 'secret.key'), `${hex(raw)}\n`, { mode: 0o600 });
    const ring = loadKeyring({ CORRIDOR_DATA_DIR: dir });
    expect(ring.current.key.equals(raw) && ring.hashKey.equals(raw)).toBe(true);
  });

  it('refuses a damaged key file instead of replacing it', () => {
    const dir = tempDir();
    for (const text of ['garbage\n', 'key abc\n', `hash ${hex(randomBytes(32))}\n`, `frob ${hex(randomBytes(32))}\n`]) {
      writeFileSync(path.join(dir, 'secret.key'), text, { mode: 0o600 });
      expect(() => loadKeyring({ CORRIDOR_DATA_DIR: dir })).toThrow(MasterKeyError);
      expect(readFileSync(path.join(dir, 'secret.key'), 'utf8')).toBe(text);
    }
  });
});

describe('envelopes', () => {
  it('seals as v2.<key id>.<iv, ciphertext, tag> bound to its context; wrong context, key or byte fail', () => {
    const sealed = seal(Buffer.from('secret material'), 'ctx-a', SCHEMES.vault);
    expect(sealed).toMatch(new RegExp(`^v2\\.${keyring().current.id}\\.[\\w-]+$`));
    expect(sealed).not.toContain(Buffer.from('secret material').toString('base64url'));
    expect(open(sealed, 'ctx-a', SCHEMES.vault).toString()).toBe('secret material');
    expect(seal(Buffer.from('secret material'), 'ctx-a', SCHEMES.vault)).not.toBe(sealed); // fresh IV
    expect(() => open(sealed, 'ctx-b', SCHEMES.vault)).toThrow(MasterKeyError);
    expect(() => open(sealed, 'ctx-a', SCHEMES.webhookKeys)).toThrow(MasterKeyError);
    const [v, id, body] = sealed.split('.');
    const raw = Buffer.from(body, 'base64url');
    raw[14] ^= 1;
    expect(() => open(`${v}.${id}.${raw.toString('base64url')}`, 'ctx-a', SCHEMES.vault)).toThrow(MasterKeyError);
    useKeys({ CORRIDOR_SECRET_KEY: hex(randomBytes(32)) });
    expect(() => open(sealed, 'ctx-a', SCHEMES.vault)).toThrow(/does not know/);
  });

  it('opens both v1 layouts written before v2 (vault and webhook keys), under any known key', () => {
    const old = randomBytes(32);
    const gcm = (key: Buffer, aad: string, plain: string) => {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      c.setAAD(Buffer.from(aad));
      const ct = Buffer.concat([c.update(plain), c.final()]);
      return { iv, ct, tag: c.getAuthTag() };
    };
    const v = gcm(subkey(old, SCHEMES.vault), 'card:pan:Card:1', '4111111111111111');
    const vaultV1 = `v1.${Buffer.concat([v.iv, v.ct, v.tag]).toString('base64url')}`;
    const w = gcm(subkey(old, SCHEMES.webhookKeys), 'webhook-signing-key:Platform:1', 'pkcs8 bytes');
    const webhookV1 = ['v1', w.iv, w.tag, w.ct]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
    // After a rotation the old key only opens; the v1 envelopes name no key, and still open.
    useKeys({
      CORRIDOR_SECRET_KEY: hex(randomBytes(32)),
      CORRIDOR_OTHER_SECRET_KEYS: hex(old),
      CORRIDOR_HASH_KEY: hex(old),
    });
    expect(Buffer.from(unseal(vaultV1, 'card:pan:Card:1')).toString()).toBe('4111111111111111');
    expect(open(webhookV1, 'webhook-signing-key:Platform:1', SCHEMES.webhookKeys).toString()).toBe('pkcs8 bytes');
    expect(() => unseal(vaultV1, 'card:pan:Card:2')).toThrow(MasterKeyError);
    useKeys({ CORRIDOR_SECRET_KEY: hex(randomBytes(32)) });
    expect(() => unseal(vaultV1, 'card:pan:Card:1')).toThrow(MasterKeyError);
  });

  it('refuses a GCM tag shorter than 16 bytes (a 4-byte tag falls to 2^32 guesses)', () => {
    const key = subkey(keyring().current.key, SCHEMES.webhookKeys);
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, iv);
    c.setAAD(Buffer.from('ctx'));
    const ct = Buffer.concat([c.update('pkcs8 bytes'), c.final()]);
    const fullTag = c.getAuthTag();
    const v1 = (tagBytes: Buffer) =>
      ['v1', iv.toString('base64url'), tagBytes.toString('base64url'), ct.toString('base64url')].join('.');
    expect(open(v1(fullTag), 'ctx', SCHEMES.webhookKeys).toString()).toBe('pkcs8 bytes');
    for (const n of [4, 8, 12, 15])
      expect(() => open(v1(fullTag.subarray(0, n)), 'ctx', SCHEMES.webhookKeys)).toThrow(MasterKeyError);
    const sealed = seal(Buffer.from('x'), 'ctx', SCHEMES.vault);
    const [v, id, body] = sealed.split('.');
    const cut = Buffer.from(body, 'base64url').subarray(0, -12).toString('base64url');
    expect(() => open(`${v}.${id}.${cut}`, 'ctx', SCHEMES.vault)).toThrow(MasterKeyError);
  });
});

describe('a key file changed under a running process', () => {
  it('seals under the new key, opens under the old one, and keeps every hash', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'secret.key');
    const old = randomBytes(32);
    writeFileSync(file, `${hex(old)}\n`, { mode: 0o600 });
    useKeys({ CORRIDOR_DATA_DIR: dir });
    const before = seal(Buffer.from('sealed before'), 'ctx', SCHEMES.vault);
    const tagBefore = tag('123456', 'one-time-code');
    const next = randomBytes(32);
    writeKeyFile(file, { keys: [next, old], hash: old });
    // An envelope naming a key the process has not loaded yet makes it read the file at once.
    const after = loadKeyring({ CORRIDOR_DATA_DIR: dir });
    expect(after.current.id).toBe(keyId(next));
    const sealedElsewhere = seal(Buffer.from('sealed elsewhere'), 'ctx', SCHEMES.vault);
    expect(sealedElsewhere.split('.')[1]).toBe(keyId(old)); // not looked at the file yet
    await new Promise((r) => setTimeout(r, 1_100));
    const now = seal(Buffer.from('sealed after'), 'ctx', SCHEMES.vault);
    expect(now.split('.')[1]).toBe(keyId(next));
    expect(open(before, 'ctx', SCHEMES.vault).toString()).toBe('sealed before');
    expect(open(now, 'ctx', SCHEMES.vault).toString()).toBe('sealed after');
    expect(tag('123456', 'one-time-code')).toBe(tagBefore);
    expect(readFileSync(file, 'utf8')).toBe(formatKeyFile({ keys: [next, old], hash: old }));
  });
});
