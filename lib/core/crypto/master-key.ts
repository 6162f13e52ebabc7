import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The service master key protects secrets the service must be able to use again (webhook
// signing private keys, wallet-auth secrets), so a copy of the database alone does not reveal
// them. It never enters the database; each use derives its own subkey from it (HKDF) so that no
// two purposes share key material.
//
// Where it comes from:
// - CORRIDOR_SECRET_KEY: 32 bytes as 64 hex characters or base64/base64url. Set it in production
//   and keep it with the database backups' secrets, not beside them: without it the encrypted
//   keys cannot be used (platforms would need new signing keys).
// - Unset: generated once into `${CORRIDOR_DATA_DIR:-./data}/secret.key` (hex, mode 0600) and
//   reused on later starts, so local development and the embedded database work without setup.
//   Every process sharing the database must see the same key (same env or same file).
const KEY_BYTES = 32;
const VERSION = 'v1';

export class MasterKeyError extends Error {}

function parseKey(text: string, source: string): Buffer {
  const t = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(t)
    ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(t)
      ? Buffer.from(t, 'base64')
      : null;
  if (!bytes || bytes.length !== KEY_BYTES) {
    throw new MasterKeyError(`${source} must be ${KEY_BYTES} bytes written as 64 hex characters or base64`);
  }
  return bytes;
}

/** Reads (or, when absent, creates) the master key as the environment describes. Not cached. */
export function loadMasterKey(env: Record<string, string | undefined> = process.env): Buffer {
  if (env.CORRIDOR_SECRET_KEY) return parseKey(env.CORRIDOR_SECRET_KEY, 'CORRIDOR_SECRET_KEY');
  const file = path.resolve(env.CORRIDOR_DATA_DIR || './data', 'secret.key');
  try {
    return parseKey(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // 'wx': when two processes start at once, one creates the file and the other reads it.
    writeFileSync(file, randomBytes(KEY_BYTES).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    console.log(`[corridor] generated the service master key in ${file} (set CORRIDOR_SECRET_KEY to supply your own)`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseKey(readFileSync(file, 'utf8'), file);
}

let cached: Buffer | undefined;

export function masterKey(): Buffer {
  return (cached ??= loadMasterKey());
}

/**
 * AES-256-GCM with a fresh 96-bit IV under `key` (a purpose's subkey). `context` is bound as
 * associated data, so a ciphertext copied to another row (another platform) does not decrypt there.
 */
export function seal(plain: Buffer, context: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function open(sealed: string, context: string, key: Buffer): Buffer {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined)
    throw new MasterKeyError('unrecognized ciphertext format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]);
  } catch {
    throw new MasterKeyError(
      'cannot decrypt: wrong master key (CORRIDOR_SECRET_KEY / secret.key) or altered ciphertext',
    );
  }
}
