import { errorText, log } from '../core/log';
import { currentCorridor } from '../core/context';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from './crypto/secrets';
import { addSeconds, now } from './clock';
import { withClaim, type Claim } from './context';
import { DomainError, invalidInput } from './errors';
import * as records from './idempotency';
import { instanceKey, isAlive } from './instance';

// The Idempotency-Key protocol, one for every surface (the API edge, MCP tools, wallet routes and
// console actions all reach it through the command runner, lib/core/command.ts). The first
// request with a key claims it and runs; its effect records the answer in its own transaction
// (lib/core/idempotency.ts). A repeat:
// - after the answer is stored: gets it byte for byte, from any server process, after restarts —
//   or, with another request body, a final refusal (400), since the key is then used for good;
// - while the original runs: waits for its answer, then gets 409 "in progress" (retry later) —
//   with another body too, and the running original is never touched. Not a final 400 yet: the
//   original may still fail and let the key go, and an earlier attempt of this other body, given
//   up by its client but still on its way here, would then claim the key and commit — an effect
//   whose client was told it was refused for good;
// - when the original's process died (its instance lock is gone from the database): takes the
//   claim over and executes — the original's effect never committed, or the answer would be stored.
// Only a claim's owner completes or releases it.
const RETENTION_SECONDS = 24 * 3600;
/** How long a repeat waits for the running original's answer before 409 (CORRIDOR_IDEMPOTENCY_WAIT_MS). */
const waitLimitMs = () => Number(process.env.CORRIDOR_IDEMPOTENCY_WAIT_MS) || 15_000;

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

export const inProgress = (other = false) =>
  new DomainError(
    'CONFLICT',
    other
      ? 'A different request with this Idempotency-Key is still in progress; retry later (once its answer is stored, this request is refused)'
      : 'A request with this Idempotency-Key is still in progress; retry later',
    { reason: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
    { retryAfterSeconds: 1, retryable: true },
  );

const differentRequest = () =>
  invalidInput('Idempotency-Key was already used with a different request; use a new key for a new request', [
    { field: 'Idempotency-Key', message: 'was already used with a different request' },
  ]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Begin = { kind: 'replay'; status: number; body: string } | { kind: 'owned'; claim: Claim };

/**
 * Claims `key` for this request, or says what to answer instead. Throws 400 for a different
 * request under a key whose answer is stored, and 409 when the key's request (this one's or a
 * different one) is still running after a while.
 */
export async function begin(platformId: string, key: string, hash: string, answer: Claim['answer']): Promise<Begin> {
  const started = Date.now();
  const ownerInstance = await instanceKey();
  const claim: Claim = { platformId, key, owner: `${ownerInstance}:${randomUUID()}`, answer };
  for (let round = 0; ; round++) {
    const at = now();
    const expiresAt = addSeconds(at, RETENTION_SECONDS);
    if (
      await records.insertClaim({
        platformId,
        key,
        requestHash: hash,
        owner: claim.owner,
        ownerInstance,
        at,
        expiresAt,
      })
    )
      return { kind: 'owned', claim };
    const record = await records.findRecord(platformId, key);
    if (!record) continue; // released between our insert and read: try again
    const same = record.requestHash === hash;
    if (record.state === 'DONE') {
      if (!same) throw differentRequest();
      if (record.responseStatus !== null)
        return { kind: 'replay', status: record.responseStatus, body: record.responseBody ?? '' };
    }
    // A dead owner's effect never committed: the key is free, for this body or another one.
    const dead = record.owner !== null && (record.ownerInstance === null || !(await isAlive(record.ownerInstance)));
    const to = { owner: claim.owner, ownerInstance, requestHash: hash };
    if (dead && (await records.takeOver(platformId, key, record.owner!, to))) return { kind: 'owned', claim };
    if (Date.now() - started > waitLimitMs()) throw inProgress(!same);
    await sleep(Math.min(10 * 2 ** Math.min(round, 4), 200));
  }
}

/** Whether a finished operation's answer is kept for repeats: not when waiting may change it. */
export const keeps = (status: number) => status < 500 && status !== 429 && status !== 503;

/**
 * After the operation: stores its answer unless its effect already did, and says what to send.
 * Returns the stored answer when the effect committed one (that is the answer, whatever happened
 * after), or null to send the operation's own. Throws 409 "in progress" when the claim was taken
 * over while the operation ran (its process looked dead to a retry's): the key's answer is then
 * the taker's, which may yet commit an effect, so this attempt's own refusal must not be final.
 */
export async function finish(
  claim: Claim,
  outcome: { status: number; text: string },
): Promise<{ status: number; text: string } | null> {
  if (claim.bound) return claim.bound;
  if (keeps(outcome.status)) {
    if (!(await records.complete(claim, outcome))) throw records.claimLost();
    return null;
  }
  // A server error: the effect may still have committed with its answer (e.g. the commit
  // succeeded but its acknowledgement was lost). Then that answer stands; otherwise let go.
  const record = await records.findRecord(claim.platformId, claim.key);
  if (record?.state === 'DONE' && record.owner === claim.owner && record.responseStatus !== null) {
    return { status: record.responseStatus, text: record.responseBody ?? '' };
  }
  await records.release(claim);
  return null;
}

/** An operation's answer as stored under its key and sent: status, body text, extra headers. */
export interface Answer {
  status: number;
  text: string;
  headers?: Record<string, string>;
}

/**
 * What a keyed operation answers, and whence: `replay` a previous request's stored answer;
 * `stored` the answer this request's effect committed with it (it stands, whatever failed after);
 * `fresh` this request's own answer (kept for repeats unless waiting may change it, `keeps`).
 */
export type KeyedAnswer = Answer & { source: 'replay' | 'stored' | 'fresh' };

/**
 * Runs an operation under its key — the one protocol for every surface (the API wrapper, MCP
 * tools): claim or replay (`begin`), run `call` holding the claim so that its effect records
 * `toAnswer(result)` in its own transaction, then store or release (`finish`). `toError` turns
 * whatever `call` threw into the answer for it. `label` names the operation in logs.
 */
export async function runKeyed(
  op: { label: string; platformId: string; key: string; hash: string },
  call: () => Promise<unknown>,
  toAnswer: (result: unknown) => Answer,
  toError: (err: unknown) => Answer,
): Promise<KeyedAnswer> {
  const metrics = currentCorridor().metrics.idempotency;
  let begun: Begin;
  try {
    begun = await begin(op.platformId, op.key, op.hash, (result) => {
      const { status, text } = toAnswer(result);
      return { status, text };
    });
  } catch (err) {
    if (err instanceof DomainError)
      metrics.inc({ outcome: err.code === 'CONFLICT' ? 'in_progress' : 'different_request' });
    throw err;
  }
  if (begun.kind === 'replay') {
    metrics.inc({ outcome: 'replay' });
    return { status: begun.status, text: begun.body, source: 'replay' };
  }
  const { claim } = begun;
  let outcome: Answer;
  try {
    outcome = toAnswer(await withClaim(claim, call));
    // Every effect of a keyed operation must record its answer with it (tests catch one that does not).
    if (process.env.VITEST && outcome.status < 300 && !claim.bound)
      throw new Error(`${op.label} answered without recording its Idempotency-Key with its effect`);
  } catch (err) {
    outcome = toError(err);
  }
  let stored: { status: number; text: string } | null = claim.bound ?? null;
  try {
    stored = await finish(claim, outcome);
  } catch (err) {
    if (err instanceof DomainError) return { ...toError(err), source: 'fresh' }; // the key is no longer this request's
    // The answer could not be stored: a committed effect still answers with its own record.
    log().error({ operation: op.label, err: errorText(err) }, 'storing the Idempotency-Key answer failed');
  }
  if (stored) return { ...stored, source: 'stored' };
  return { ...outcome, source: 'fresh' };
}
