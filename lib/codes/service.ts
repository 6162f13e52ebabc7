import { randomInt } from 'node:crypto';
import { addSeconds, now } from '../core/clock';
import type { Tx } from '../core/db';
import { DomainError } from '../core/errors';
import { newId } from '../core/ids';
import { isSandbox } from '../core/mode';
import { tag } from '../core/crypto/vault';
import * as repo from './repository';

// One-time codes: issued, stored, verified and throttled here for every mechanism that sends a
// customer a code (quote SCA, beneficiary trust, contact verification, embedded-wallet OTP; SCA
// logins and factor enrollment next). A mechanism declares a CodePurpose and keeps its own
// rules about what a code unlocks and how it is delivered:
//
// - issue(): a new code for a subject (the quote, account, customer or credential it belongs to),
//   superseding the subject's previous one, refused with 429 RATE_LIMITED and Retry-After when
//   issued again too soon. Returns the code itself, which the caller delivers after its
//   transaction commits (never before: a rolled-back code must not have been sent).
// - verify(): one attempt, counted atomically in the database (repository.attempt), so however
//   many attempts arrive at once, at most maxAttempts wrong codes are ever compared; after that
//   the code is dead and only a new one helps.
//
// Codes are stored as an HMAC-SHA256 keyed with a subkey of the service master key (over the
// purpose, subject and code), so the table alone gives no six-digit code away. A code is never
// logged nor put in an error. In sandbox the code is the purpose's fixed sandbox code; outside
// sandbox it is random.
export interface CodePurpose {
  /** Stored with each code; unique per mechanism. */
  name: string;
  ttlSeconds: number;
  /** Wrong codes accepted before the code is dead. */
  maxAttempts: number;
  resend?: {
    /** Least time between two codes (of the same binding, with perBinding). */
    afterSeconds: number;
    /** At most this many codes per subject within an hour. */
    maxPerHour?: number;
    /** The spacing applies per binding (e.g. per address a code went to) rather than per subject. */
    perBinding?: boolean;
  };
  /** In sandbox: the one code issued, and other codes accepted in its place (documented aliases). */
  sandbox: { code: string; alsoAccepted?: string[] };
  /** Codes compare after this (e.g. case-insensitive alphanumeric codes). */
  normalize?: (code: string) => string;
}

export interface CodeFormat {
  length?: number;
  alphanumeric?: boolean;
}

export interface IssueRequest {
  platformId: string;
  subject: string;
  /** What a confirmation must also match (a challenge id, a hash of the address the code went to). */
  binding?: string | null;
  /** Overrides the purpose's lifetime (e.g. a platform's configured OTP expiry). */
  ttlSeconds?: number;
  format?: CodeFormat;
}

export interface IssuedCode {
  id: string;
  /** The plaintext code, for delivery only. */
  code: string;
  createdAt: Date;
  expiresAt: Date;
}

export type Verification =
  | { ok: true; id: string }
  /** A wrong code, counted; attemptsLeft 0 means this was the last one the code takes. */
  | { ok: false; reason: 'WRONG'; attemptsLeft: number }
  /** Dead after maxAttempts wrong codes: nothing was compared. */
  | { ok: false; reason: 'EXHAUSTED'; issuedAt: Date }
  | { ok: false; reason: 'EXPIRED' }
  /** Nothing outstanding: never issued, already used, or superseded by a newer code. */
  | { ok: false; reason: 'NONE' };

const DIGITS = '0123456789';
// No 0/O, 1/I: an alphanumeric code is read off a screen and typed in.
const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function generate(purpose: CodePurpose, format: CodeFormat = {}): string {
  if (isSandbox()) return purpose.sandbox.code;
  const alphabet = format.alphanumeric ? ALPHANUMERIC : DIGITS;
  return Array.from({ length: format.length ?? 6 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

function hashOf(purpose: CodePurpose, subject: string, code: string): string {
  const normalized = purpose.normalize ? purpose.normalize(code) : code;
  const effective =
    isSandbox() && purpose.sandbox.alsoAccepted?.includes(normalized) ? purpose.sandbox.code : normalized;
  return `hmac-sha256$${tag(effective, `one-time-code:${purpose.name}:${subject}`)}`;
}

export function rateLimited(message: string, seconds: number): DomainError {
  const wait = Math.max(1, Math.ceil(seconds));
  return new DomainError(
    'RATE_LIMITED',
    `${message}; retry in ${wait} s`,
    { retryAfterSeconds: wait },
    { retryAfterSeconds: wait },
  );
}

/** Refuses a code issued too soon after the previous ones (RATE_LIMITED with Retry-After). */
async function throttle(tx: Tx, purpose: CodePurpose, req: IssueRequest, at: Date): Promise<void> {
  const rules = purpose.resend;
  if (!rules) return;
  const recent = await repo.issuedSince(purpose.name, req.subject, addSeconds(at, -3600), tx);
  const binding = req.binding ?? null;
  const last = (rules.perBinding ? recent.filter((r) => r.binding === binding) : recent).at(-1);
  const elapsed = (d: Date) => (at.getTime() - d.getTime()) / 1000;
  if (last && elapsed(last.createdAt) < rules.afterSeconds)
    throw rateLimited('A code was sent recently', rules.afterSeconds - elapsed(last.createdAt));
  if (rules.maxPerHour !== undefined && recent.length >= rules.maxPerHour)
    throw rateLimited('Too many codes were sent in the last hour', 3600 - elapsed(recent[0].createdAt));
}

/**
 * Issues a code for `req.subject`, inside the caller's transaction: throttled, superseding the
 * subject's live code. Deliver `code` after the transaction commits.
 */
export async function issue(tx: Tx, purpose: CodePurpose, req: IssueRequest): Promise<IssuedCode> {
  const at = now();
  await repo.lockSubject(purpose.name, req.subject, tx);
  await throttle(tx, purpose, req, at);
  await repo.supersede(purpose.name, req.subject, tx);
  const code = generate(purpose, req.format);
  const issued = {
    id: newId('OneTimeCode'),
    code,
    createdAt: at,
    expiresAt: addSeconds(at, req.ttlSeconds ?? purpose.ttlSeconds),
  };
  await repo.insert(
    {
      id: issued.id,
      platformId: req.platformId,
      purpose: purpose.name,
      subject: req.subject,
      binding: req.binding ?? null,
      codeHash: hashOf(purpose, req.subject, code),
      maxAttempts: purpose.maxAttempts,
      createdAt: at,
      expiresAt: issued.expiresAt,
    },
    tx,
  );
  return issued;
}

/**
 * One attempt at the subject's live code. `code` null is an attempt that failed before a code
 * could be read (e.g. a sealed code that does not decrypt): counted like a wrong code. Pass the
 * caller's transaction when the success must commit with other writes; a refusal should then be
 * returned from the transaction, not thrown, so that the counted attempt commits.
 */
export async function verify(
  purpose: CodePurpose,
  req: { subject: string; binding?: string | null; code: string | null },
  tx: Tx,
): Promise<Verification> {
  const at = now();
  const codeHash = req.code === null ? 'none' : hashOf(purpose, req.subject, req.code);
  const hit = await repo.attempt(
    { purpose: purpose.name, subject: req.subject, binding: req.binding ?? null, codeHash, at },
    tx,
  );
  if (hit?.state === 'USED') return { ok: true, id: hit.id };
  if (hit) return { ok: false, reason: 'WRONG', attemptsLeft: hit.maxAttempts - hit.attempts };
  const last = await repo.latest(purpose.name, req.subject, tx);
  if (!last || (last.binding ?? null) !== (req.binding ?? null)) return { ok: false, reason: 'NONE' };
  if (last.state === 'EXHAUSTED' || (last.state === 'ACTIVE' && last.attempts >= last.maxAttempts))
    return { ok: false, reason: 'EXHAUSTED', issuedAt: last.createdAt };
  if (last.state === 'ACTIVE') return { ok: false, reason: 'EXPIRED' };
  return { ok: false, reason: 'NONE' };
}

/** The subject's live code, if any: what a mechanism shows about it (never the code). */
export async function outstanding(purpose: CodePurpose, subject: string, tx: Tx) {
  const row = await repo.active(purpose.name, subject, tx);
  return row && { id: row.id, binding: row.binding, createdAt: row.createdAt, expiresAt: row.expiresAt };
}

/** Ends the subject's live code (its challenge was replaced or revoked). */
export function retire(tx: Tx, purpose: CodePurpose, subject: string): Promise<void> {
  return repo.supersede(purpose.name, subject, tx);
}

/** Removes a code that could not be delivered: it neither works nor counts against resends. */
export const discard = repo.discard;

/** Housekeeping: codes that expired before `before`. */
export const purgeExpired = repo.purgeExpired;
