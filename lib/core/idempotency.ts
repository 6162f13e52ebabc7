import { DomainError } from './errors';
import { currentClaim, type Claim } from './context';
import { Prisma, db, queryDirect, queryIn, transaction, type Tx } from './db';
import { guardSql, type Guard } from './sql';
import { deleteBatch, EVERY_ROW } from './housekeeping';

// Idempotency-Key records. A request that brings a key claims it (a PENDING row naming the
// request as owner and the owner's process instance, lib/core/instance.ts); the operation's
// effect then records its answer under the key IN THE SAME database transaction (or statement)
// as the effect itself, guarded by the owner. So a committed effect always has its answer stored
// — whatever happens to the process afterwards — and an effect whose claim was taken over by a
// retry (its owner looked dead) cannot commit at all. The runner of keyed operations (lib/core/keyed.ts)
// decides what a repeat gets; services only mark their effect (`effect`, `claimMove`).

export interface StoredIdempotency {
  requestHash: string;
  state: string;
  owner: string | null;
  ownerInstance: number | null;
  responseStatus: number | null;
  responseBody: string | null;
}

/** The claim was taken over by a retry while this request ran (its process looked dead). */
export const claimLost = () =>
  new DomainError(
    'CONFLICT',
    'A request with this Idempotency-Key is in progress elsewhere; retry later',
    { reason: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
    { retryAfterSeconds: 1, retryable: true },
  );

function bindGuard(claim: Claim, answer: { status: number; text: string }): Guard {
  return {
    table: 'IdempotencyRecord',
    where: { platformId: claim.platformId, key: claim.key, owner: claim.owner, state: 'PENDING' },
    set: { state: 'DONE', responseStatus: answer.status, responseBody: answer.text },
    required: true,
  };
}

/**
 * Runs an operation's effect in one database transaction and, when the operation holds an
 * Idempotency-Key, records `fn`'s result as its answer in that same transaction. `fn` returns
 * the operation's result (what the service returns to its caller). Without a key this is
 * `transaction`.
 */
export async function effect<T>(fn: (tx: Tx) => Promise<T | Refusal>, opts?: { timeoutMs?: number }): Promise<T> {
  const claim = currentClaim();
  let answer: { status: number; text: string } | undefined;
  const result = await transaction(async (tx) => {
    const r = await fn(tx);
    if (r instanceof Refusal || !claim || claim.bound) return r;
    answer = claim.answer(r);
    const rows = await queryIn<unknown>(tx, guardSql(bindGuard(claim, answer)));
    if (rows.length !== 1) throw claimLost();
    return r;
  }, opts);
  if (result instanceof Refusal) throw result.error;
  if (claim && answer) claim.bound = answer;
  return result;
}

/**
 * What an effect returns when it records something (an expiry it noticed, say) but the
 * operation's answer is still a refusal: the transaction commits without recording an answer
 * under the key, and `effect` throws `error`.
 */
export class Refusal {
  constructor(readonly error: Error) {}
}

/**
 * An effect that is one write (`write`, given the client to use) whose result is known before it
 * runs: without a key the write runs alone, outside any transaction (the fast path); with one, in
 * a transaction beside the record of its answer.
 */
export async function effectWrite<T>(result: T, write: (tx: Tx) => Promise<unknown>): Promise<T> {
  const claim = currentClaim();
  if (!claim || claim.bound) {
    await write(db());
    return result;
  }
  return effect(async (tx) => {
    await write(tx);
    return result;
  });
}

/**
 * For an effect written as one statement outside a transaction (the payment hot paths): the
 * guarded record of the answer as one more required part of that statement. `bound()` is called
 * once the statement succeeded. Null when the operation holds no key.
 */
export function claimMove(result: unknown): { guard: Guard; bound: () => void } | null {
  const claim = currentClaim();
  if (!claim || claim.bound) return null;
  const answer = claim.answer(result);
  return { guard: bindGuard(claim, answer), bound: () => (claim.bound = answer) };
}

/** Inserts a PENDING claim; false when the key already has a record (then read it). */
export async function insertClaim(c: {
  platformId: string;
  key: string;
  requestHash: string;
  owner: string;
  ownerInstance: number;
  at: Date;
  expiresAt: Date;
}): Promise<boolean> {
  const rows = await queryDirect<unknown>(Prisma.sql`
    INSERT INTO "IdempotencyRecord" ("platformId", "key", "requestHash", "state", "owner", "ownerInstance", "createdAt", "expiresAt")
    VALUES (${c.platformId}, ${c.key}, ${c.requestHash}, 'PENDING', ${c.owner}, ${c.ownerInstance}::int, ${c.at}::timestamp(3), ${c.expiresAt}::timestamp(3))
    ON CONFLICT ("platformId", "key") DO NOTHING RETURNING 1`);
  return rows.length === 1;
}

export async function findRecord(platformId: string, key: string): Promise<StoredIdempotency | null> {
  const rows = await queryDirect<StoredIdempotency>(Prisma.sql`
    SELECT "requestHash", "state", "owner", "ownerInstance", "responseStatus", "responseBody"
    FROM "IdempotencyRecord" WHERE "platformId" = ${platformId} AND "key" = ${key}`);
  return rows[0] ?? null;
}

/**
 * Takes over a PENDING claim from an owner known to be dead; only one taker wins. The key then
 * belongs to the taker's request (its hash), which may differ from the dead owner's.
 */
export async function takeOver(
  platformId: string,
  key: string,
  from: string,
  to: { owner: string; ownerInstance: number; requestHash: string },
): Promise<boolean> {
  const rows = await queryDirect<unknown>(Prisma.sql`
    UPDATE "IdempotencyRecord" SET "owner" = ${to.owner}, "ownerInstance" = ${to.ownerInstance}::int, "requestHash" = ${to.requestHash}
    WHERE "platformId" = ${platformId} AND "key" = ${key} AND "owner" = ${from} AND "state" = 'PENDING' RETURNING 1`);
  return rows.length === 1;
}

/** Stores the answer of an operation that did not record it with an effect; owner only. */
export async function complete(claim: Claim, answer: { status: number; text: string }): Promise<boolean> {
  return (await queryDirect<unknown>(guardSql(bindGuard(claim, answer)))).length === 1;
}

/** Gives the key up so that a retry executes afresh; owner only, and only while PENDING. */
export async function release(claim: Claim): Promise<void> {
  await queryDirect(Prisma.sql`DELETE FROM "IdempotencyRecord"
    WHERE "platformId" = ${claim.platformId} AND "key" = ${claim.key} AND "owner" = ${claim.owner} AND "state" = 'PENDING'`);
}

/** Records that expired before `now`, at most `limit` of them (housekeeping, lib/jobs/retention.ts). */
export function purgeExpired(now: Date, limit = EVERY_ROW): Promise<number> {
  return deleteBatch('IdempotencyRecord', Prisma.sql`"expiresAt" < ${now}`, limit);
}
