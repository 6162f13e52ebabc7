import { sha256Hex } from '../auth/secrets';
import { addSeconds, now } from '../core/clock';
import { invalidInput } from '../core/errors';
import { stillInProgress } from './errors';
import * as repo from './idempotency-repository';

// Idempotency-Key: the first response to a key is stored with a hash of the request; a repeat
// gets that response back byte for byte, a repeat with a different request is refused, and a
// concurrent duplicate waits for the first to finish instead of executing again.
const RETENTION_SECONDS = 24 * 3600;
const STALE_AFTER_MS = 60_000; // a PENDING claim older than this belongs to a request that died
const WAIT_STEP_MS = 20;
const WAIT_LIMIT_MS = 15_000;

export interface StoredResponse {
  status: number;
  body: string;
}

export function requestHash(method: string, path: string, body: string): string {
  return sha256Hex(`${method}\n${path}\n${body}`);
}

export function validateKey(key: string): string {
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidInput('Idempotency-Key must be 1-255 visible ASCII characters (a UUID is recommended)', [
      { field: 'Idempotency-Key', message: 'must be 1-255 visible ASCII characters' },
    ]);
  }
  return key;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Claims the key for this request. Returns a stored response to replay, or null when the caller
 * now owns the key and must call `finish` (or `abandon` on an unexpected failure).
 */
export async function begin(platformId: string, key: string, hash: string): Promise<StoredResponse | null> {
  const started = Date.now();
  for (;;) {
    const at = now();
    if (await repo.claim(platformId, key, hash, at, addSeconds(at, RETENTION_SECONDS))) return null;
    const record = await repo.find(platformId, key);
    if (!record) continue; // released between our insert and read: try again
    if (record.requestHash !== hash) {
      throw invalidInput('Idempotency-Key was already used with a different request; use a new key for a new request', [
        { field: 'Idempotency-Key', message: 'was already used with a different request' },
      ]);
    }
    if (record.state === 'DONE' && record.responseStatus !== null) {
      return { status: record.responseStatus, body: record.responseBody ?? '' };
    }
    if (
      record.createdAt.getTime() < at.getTime() - STALE_AFTER_MS &&
      (await repo.takeOver(platformId, key, new Date(at.getTime() - STALE_AFTER_MS), at))
    ) {
      return null;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) {
      throw stillInProgress('A request with this Idempotency-Key is still in progress; retry later');
    }
    await sleep(WAIT_STEP_MS);
  }
}

/** Stores the outcome. Server errors are not stored, so the client may retry them. */
export async function finish(platformId: string, key: string, status: number, body: string): Promise<void> {
  if (status >= 500) await repo.release(platformId, key);
  else await repo.complete(platformId, key, status, body);
}

export async function abandon(platformId: string, key: string): Promise<void> {
  await repo.release(platformId, key);
}
