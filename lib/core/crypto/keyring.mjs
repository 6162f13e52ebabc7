// The service's master keys (plain JavaScript: the app and scripts/rotate-master-key.mjs share it).
//
// Secrets the service must read back (card numbers, custodied keys, webhook signing keys, ...) are
// sealed with AES-256-GCM under a subkey (HKDF) of a master key; the master key never enters the
// database. Several master keys can be known at once, each by an id derived from it: the current
// one seals, every known one opens what it sealed, so the key can be rotated while the service
// runs (npm run rotate-master-key re-seals everything under a new current key).
//
// Keyed hashes and MACs (API secret hashes, one-time codes, agent tokens, signed links, session
// and cursor signatures, the bundle-signing key) use a separate hash key, which does not rotate
// with the master key: a hash cannot be re-made without the secret it hides, so a rotation that
// changed their key would lock out every API client and sign everyone out. The hash key only keys
// HMACs and HKDF derivations, never encrypts; an installation made before keys rotated uses its
// original master key as its hash key (so every stored hash still verifies), a new one gets a hash
// key of its own.
//
// Where the keys come from:
// - CORRIDOR_SECRET_KEY: the current master key, 32 bytes as 64 hex characters or base64(url).
//   CORRIDOR_OTHER_SECRET_KEYS: further keys (comma-separated) that only open: the previous key
//   during and after a rotation. CORRIDOR_HASH_KEY: the hash key (default CORRIDOR_SECRET_KEY,
//   which is what a single-key installation has always used; required once there are other keys).
// - Otherwise the key file `${CORRIDOR_DATA_DIR:-./data}/secret.key` (mode 0600), generated on
//   first start: `key <k>` lines (the first seals) and one `hash <k>` line (a file of one bare key,
//   as written before keys rotated, is that key for both). Every process sharing the database must
//   see the same keys. Processes notice a change of the file within a second, and at once when
//   they meet a key id they do not know, so the rotation script can change it under them.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const KEY_BYTES = 32;
const IV_BYTES = 12;
/** GCM tags are always 16 bytes: a shorter tag would be far easier to forge. */
const TAG_BYTES = 16;
const VERSION = 'v2';
/** How often a process looks at the key file for a change (only when it uses a key). */
const RELOAD_CHECK_MS = 1_000;

export class MasterKeyError extends Error {}

/** @typedef {{ id: string, key: Buffer }} MasterKey */
/** @typedef {{ current: MasterKey, keys: MasterKey[], hashKey: Buffer, file: string | null }} Keyring */
/** HKDF parameters naming one use of the master key. @typedef {{ salt: string, info: string }} SealScheme */

/** @param {string} text @param {string} source @returns {Buffer} */
export function parseKey(text, source) {
  const t = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(t)
      ? Buffer.from(t, 'base64')
      : null;
  if (!bytes || bytes.length !== KEY_BYTES)
    throw new MasterKeyError(`${source} must be ${KEY_BYTES} bytes written as 64 hex characters or base64`);
  return bytes;
}

/** A key's public name: reveals nothing of the key, the same wherever the key is configured. */
export function keyId(/** @type {Buffer} */ key) {
  return createHmac('sha256', key).update('corridor/master-key-id').digest('hex').slice(0, 16);
}

const named = (/** @type {Buffer} */ key) => ({ id: keyId(key), key });

/** The key file's text: `key` lines (the first seals) and the hash key. */
export function formatKeyFile(/** @type {{ keys: Buffer[], hash: Buffer }} */ { keys, hash }) {
  return [
    '# Corridor master keys (lib/core/crypto/keyring.mjs). The first "key" seals, every "key" opens;',
    '# "hash" keys hashes and signatures and never changes. Keep this file secret and backed up apart',
    '# from the database. Change it with `npm run rotate-master-key`.',
    ...keys.map((k) => `key ${k.toString('hex')}`),
    `hash ${hash.toString('hex')}`,
    '',
  ].join('\n');
}

/** @param {string} text @param {string} source @returns {{ keys: Buffer[], hash: Buffer | null }} */
export function parseKeyFile(text, source) {
  const keys = [];
  let hash = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [kind, value, ...rest] = line.split(/\s+/);
    if (rest.length || (value !== undefined && kind !== 'key' && kind !== 'hash'))
      throw new MasterKeyError(`${source}: cannot read the line starting "${line.slice(0, 8)}"`);
    if (value === undefined)
      keys.push(parseKey(kind, source)); // a bare key: the file's only key, written before rotation
    else if (kind === 'key') keys.push(parseKey(value, source));
    else if (hash) throw new MasterKeyError(`${source} has two hash keys`);
    else hash = parseKey(value, source);
  }
  if (!keys.length) throw new MasterKeyError(`${source} holds no key`);
  return { keys, hash };
}

/** Writes the key file whole or not at all (a reader never sees half of it). */
export function writeKeyFile(/** @type {string} */ file, /** @type {{ keys: Buffer[], hash: Buffer }} */ ring) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, formatKeyFile(ring), { mode: 0o600 });
  renameSync(temp, file);
}

export const keyFilePath = (/** @type {Record<string, string | undefined>} */ env) =>
  path.resolve(env.CORRIDOR_DATA_DIR || './data', 'secret.key');

/** @param {Buffer[]} keys @param {Buffer} hash @param {string | null} file @returns {Keyring} */
function ringOf(keys, hash, file) {
  const all = keys.map(named);
  return { current: all[0], keys: all, hashKey: hash, file };
}

/**
 * Reads (or, with no environment key and no file, creates) the keys as the environment says.
 * @param {Record<string, string | undefined>} [env] @returns {Keyring}
 */
export function loadKeyring(env = process.env) {
  if (env.CORRIDOR_SECRET_KEY) {
    const current = parseKey(env.CORRIDOR_SECRET_KEY, 'CORRIDOR_SECRET_KEY');
    const others = (env.CORRIDOR_OTHER_SECRET_KEYS ?? '')
      .split(',')
      .filter((k) => k.trim())
      .map((k) => parseKey(k, 'CORRIDOR_OTHER_SECRET_KEYS'));
    // With more than one key the hash key must be named: taking the current one by default would
    // silently invalidate every stored hash the moment a new key became current.
    if (others.length && !env.CORRIDOR_HASH_KEY)
      throw new MasterKeyError(
        'CORRIDOR_HASH_KEY must be set when CORRIDOR_OTHER_SECRET_KEYS is: hashes never change key (for an installation that began with one key, it is that first CORRIDOR_SECRET_KEY)',
      );
    const hash = env.CORRIDOR_HASH_KEY ? parseKey(env.CORRIDOR_HASH_KEY, 'CORRIDOR_HASH_KEY') : current;
    return ringOf([current, ...others], hash, null);
  }
  const file = keyFilePath(env);
  try {
    const { keys, hash } = parseKeyFile(readFileSync(file, 'utf8'), file);
    return ringOf(keys, hash ?? keys[0], file);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // 'wx': when two processes start at once, one creates the file and the other reads it.
    writeFileSync(file, formatKeyFile({ keys: [randomBytes(KEY_BYTES)], hash: randomBytes(KEY_BYTES) }), {
      mode: 0o600,
      flag: 'wx',
    });
    console.log(`[corridor] generated the service master key in ${file} (set CORRIDOR_SECRET_KEY to supply your own)`);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
  }
  return loadKeyring(env);
}

// This process's keys: loaded once, and again when the key file changes.
/** @type {{ ring: Keyring, stamp: string, checkedAt: number } | null} */
let loaded = null;
const stampOf = (/** @type {string} */ file) => {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : '';
};

/** The keys this process uses now (re-read when the key file changed; `force` re-reads it now). */
export function keyring(force = false) {
  const now = Date.now();
  if (loaded?.ring.file && (force || now - loaded.checkedAt >= RELOAD_CHECK_MS)) {
    loaded.checkedAt = now;
    if (stampOf(loaded.ring.file) !== loaded.stamp) loaded = null;
  }
  if (!loaded) {
    const ring = loadKeyring();
    loaded = { ring, stamp: ring.file ? stampOf(ring.file) : '', checkedAt: now };
  }
  return loaded.ring;
}

/** Forgets the loaded keys (tests that change the environment). */
export function resetKeyring() {
  loaded = null;
  subkeys.clear();
}

// Subkeys by master key id and use, derived once each.
/** @type {Map<string, Buffer>} */
const subkeys = new Map();
function subkeyOf(/** @type {MasterKey} */ master, /** @type {SealScheme} */ scheme) {
  const id = `${master.id}:${scheme.salt}:${scheme.info}`;
  let key = subkeys.get(id);
  if (!key) subkeys.set(id, (key = Buffer.from(hkdfSync('sha256', master.key, scheme.salt, scheme.info, KEY_BYTES))));
  return key;
}

/**
 * Seals `plain` under the current master key: `v2.<key id>.<base64url(iv || ciphertext || tag)>`.
 * The version, the key id and `context` (what the secret belongs to: a ciphertext copied to another
 * row does not open there) are bound as associated data.
 * @param {Uint8Array} plain @param {string} context @param {SealScheme} scheme @param {Keyring} [ring]
 */
export function sealEnvelope(plain, context, scheme, ring = keyring()) {
  const head = `${VERSION}.${ring.current.id}`;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', subkeyOf(ring.current, scheme), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(`${head}.${context}`, 'utf8'));
  const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return `${head}.${body.toString('base64url')}`;
}

/** The id of the master key an envelope was sealed under; null for the v1 formats, which name none. */
export function envelopeKeyId(/** @type {string} */ sealed) {
  const [version, id, body, ...rest] = sealed.split('.');
  return version === VERSION && id && body !== undefined && !rest.length ? id : null;
}

/**
 * Opens an envelope of any format this service has written:
 * - v2.<key id>.<iv || ciphertext || tag>   (this module), under the key it names;
 * - v1.<iv || ciphertext || tag>             (the wallet-auth vault before v2) and
 *   v1.<iv>.<tag>.<ciphertext>               (webhook signing keys before v2),
 *   under each known key in turn (they name none), with `context` alone as associated data.
 * @param {string} sealed @param {string} context @param {SealScheme} scheme @returns {Buffer}
 */
export function openEnvelope(sealed, context, scheme) {
  const parts = sealed.split('.');
  if (parts[0] === VERSION && parts.length === 3) {
    const [, id, body] = parts;
    const master = keyring().keys.find((k) => k.id === id) ?? keyring(true).keys.find((k) => k.id === id);
    if (!master)
      throw new MasterKeyError(`cannot decrypt: sealed under master key ${id}, which this process does not know`);
    return decrypt(subkeyOf(master, scheme), split(Buffer.from(body, 'base64url')), `${VERSION}.${id}.${context}`);
  }
  let box = null;
  if (parts[0] === 'v1' && parts.length === 2) box = split(Buffer.from(parts[1], 'base64url'));
  else if (parts[0] === 'v1' && parts.length === 4) {
    const [iv, tag, ct] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
    box = { iv, ct, tag };
  } else throw new MasterKeyError('unrecognized ciphertext format');
  for (const master of keyring().keys) {
    try {
      return decrypt(subkeyOf(master, scheme), box, context);
    } catch (err) {
      if (!(err instanceof MasterKeyError)) throw err;
    }
  }
  throw cannotDecrypt();
}

const cannotDecrypt = () =>
  new MasterKeyError('cannot decrypt: wrong master key (CORRIDOR_SECRET_KEY / secret.key) or altered ciphertext');

/** @typedef {{ iv: Buffer, ct: Buffer, tag: Buffer }} Box */
/** iv || ciphertext || tag, split; too short for both an IV and a tag: not a box. @returns {Box} */
function split(/** @type {Buffer} */ raw) {
  if (raw.length < IV_BYTES + TAG_BYTES) throw cannotDecrypt();
  return {
    iv: raw.subarray(0, IV_BYTES),
    ct: raw.subarray(IV_BYTES, raw.length - TAG_BYTES),
    tag: raw.subarray(-TAG_BYTES),
  };
}

/** AES-256-GCM open of a full-size IV and a full 16-byte tag only (a short tag is far easier to forge). */
function decrypt(/** @type {Buffer} */ key, /** @type {Box} */ { iv, ct, tag }, /** @type {string} */ aad) {
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw cannotDecrypt();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]);
  } catch {
    throw cannotDecrypt();
  }
}
