import { transaction } from '../core/db';
import { sourceOf } from '../tokens/throttle';
import * as repo from './repository';

// How staff sign-in resists guessing without letting a stranger lock anyone out.
//
// Every attempt names an email and comes from a source (the client address as
// lib/http/client-address.ts computes it, honouring CORRIDOR_TRUSTED_PROXIES; IPv6 counted per
// /64). Before its password is checked, the attempt claims one slot under each limit that
// applies, in one database transaction with the limits' rows locked: if any limit is spent, the
// attempt is refused ("try again in N s") and its password is never checked, so however many
// attempts arrive at once, no more are checked than the limits allow. The limits:
// - pair (email, source): the guesser at one address. PAIR.free attempts, then each further one
//   waits twice as long as the one before (30 s, 1 min, 2 min, ... up to an hour). Signing in
//   clears it, so the owner's own typos cost them nothing once they get it right;
// - address (source): one address trying many emails (password spraying). ADDRESS.free
//   attempts, then the same doubling wait;
// - account (email), counting only attempts from sources the account never signed in from:
//   many addresses guessing one account. ACCOUNT.free attempts, then the doubling wait, for
//   strangers' sources only.
// There is no lock: a stranger's failures delay the stranger's own source, and the account's
// limit for strangers never applies to a source the owner signed in from within KNOWN_FOR, so the
// owner keeps signing in from their usual places while the account is under attack. ACCOUNT.free
// is above PAIR.free, so a single address cannot spend it either: the owner then also signs in
// from a new address. Only an attack from many addresses at once makes a new address of the
// owner's wait. Unknown emails are limited exactly like known ones, so the answers and their
// timing say nothing about which emails exist.
// A success is not counted (its slot is given back); a limit with no attempt for QUIET counts from
// zero again. All told, sources that never signed in to an account get about ACCOUNT.free + 30
// checked guesses at it in the first day and 24 a day after, however many addresses they have.
export interface Limit {
  /** Attempts counted before any waiting. */
  free: number;
  /** The wait after the first attempt past `free`; it doubles with each further attempt. */
  baseMs: number;
  maxMs: number;
}
export const PAIR: Limit = { free: 5, baseMs: 30_000, maxMs: 3600_000 };
export const ADDRESS: Limit = { free: 20, baseMs: 30_000, maxMs: 3600_000 };
export const ACCOUNT: Limit = { free: 10, baseMs: 30_000, maxMs: 3600_000 };
export const QUIET_MS = 24 * 3600_000;
export const KNOWN_FOR_MS = 90 * 24 * 3600_000;

const LIMITS = { pair: PAIR, address: ADDRESS, account: ACCOUNT };
export type LimitKind = keyof typeof LIMITS;
const kindOf = (key: string) => key.slice(0, key.indexOf(':')) as LimitKind;

/** The attempts still counted under a limit at `at`, and how long the next one must wait. */
export function standing(row: repo.LimitRow, at: Date): { attempts: number; waitMs: number } {
  const limit = LIMITS[kindOf(row.key)];
  // Never negative: a concurrent attempt may have taken its time a millisecond before the one
  // that locked the row first recorded its own, and must not wait longer than the limit says.
  const since = Math.max(0, at.getTime() - row.lastAttemptAt.getTime());
  const attempts = since >= QUIET_MS ? 0 : row.attempts;
  if (attempts < limit.free) return { attempts, waitMs: 0 };
  const wait = Math.min(limit.maxMs, limit.baseMs * 2 ** (attempts - limit.free));
  return { attempts, waitMs: Math.max(0, wait - since) };
}

export type Claim =
  | { allowed: true; source: string; keys: { pair: string; others: string[] } }
  | { allowed: false; source: string; retryAfterSeconds: number; limit: LimitKind };

/**
 * Claims an attempt to sign in as `email` from `address` (`staffUserId` when the email is an
 * account's): allowed, or refused with the wait of the most restrictive limit spent.
 */
export async function claimAttempt(
  email: string,
  address: string,
  staffUserId: string | null,
  at: Date,
): Promise<Claim> {
  const source = sourceOf(address);
  // Looked up for unknown emails too (under no id), so the answer takes as long either way.
  const known = await repo.isKnownSource(staffUserId ?? '', source, new Date(at.getTime() - KNOWN_FOR_MS));
  const pair = `pair:${email}|${source}`;
  const others = [`address:${source}`, ...(known ? [] : [`account:${email}`])];
  return transaction(async (tx): Promise<Claim> => {
    const rows = await repo.lockLimits(tx, [pair, ...others], at);
    const standings = rows.map((row) => ({ key: row.key, ...standing(row, at) }));
    const worst = standings.reduce((a, b) => (b.waitMs > a.waitMs ? b : a));
    if (worst.waitMs > 0)
      return { allowed: false, source, retryAfterSeconds: Math.ceil(worst.waitMs / 1000), limit: kindOf(worst.key) };
    await repo.writeLimits(
      tx,
      standings.map((s) => ({ key: s.key, attempts: s.attempts + 1 })),
      at,
    );
    return { allowed: true, source, keys: { pair, others } };
  });
}

/** After the right password: the pair starts again, the other limits get the slot back, the source is known. */
export async function signedIn(claim: Extract<Claim, { allowed: true }>, staffUserId: string, at: Date) {
  await repo.clearLimit(claim.keys.pair);
  await repo.refundLimits(claim.keys.others);
  await repo.rememberSource(staffUserId, claim.source, at);
}

/** A right password still awaiting its second factor: every limit gets its slot back, nothing more. */
export async function releaseClaim(claim: Extract<Claim, { allowed: true }>) {
  await repo.refundLimits([claim.keys.pair, ...claim.keys.others]);
}

/** Housekeeping (lib/jobs/retention.ts): limits quiet for QUIET_MS and sources unused for KNOWN_FOR_MS. */
export function pruneSignInLimits(wallNow: Date, limit?: number): Promise<number> {
  return repo.pruneSignIn(new Date(wallNow.getTime() - QUIET_MS), new Date(wallNow.getTime() - KNOWN_FOR_MS), limit);
}
