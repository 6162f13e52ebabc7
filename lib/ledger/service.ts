import { newId } from '../core/ids';
import { now } from '../core/clock';
import { db, inTransaction, pgCode, type Tx } from '../core/db';
import type { Guard, RowWrite } from '../core/sql';
import { DomainError } from '../core/errors';
import { totalsByCurrency, type Amount } from '../core/money';
import * as repo from './repository';

// The double-entry ledger. Every movement of money is one posting whose legs sum to zero per
// currency; balances are the sums of entries, kept as running totals on the ledger accounts.
// Internal-account buckets may never go negative (checked in the same statement that moves the
// money, and by a table constraint); system accounts for the outside world may.
export type Bucket = 'AVAILABLE' | 'HELD' | 'PENDING';
// CARD_RECEIVABLE: what cardholders owe after a card clearing the service paid to the network but
// could not pull from the funding source (a card transaction in EXCEPTION). PAYER_RECEIVABLE: what
// payers owe after their bank reversed a pull whose money had gone on (lib/payments/rail-refund-ops.ts).
export type SystemAccount =
  `WORLD:${string}` | 'FX' | 'FEES' | 'PLATFORM_FEES' | 'SANDBOX' | 'CLEARING' | 'CARD_RECEIVABLE' | 'PAYER_RECEIVABLE';

export const bucketAccount = (internalAccountId: string, bucket: Bucket) => `${internalAccountId}/${bucket}`;
export const systemAccount = (platformId: string, name: SystemAccount, currency: string) =>
  `${platformId}/${name}/${currency}`;

/** One side of a posting: an amount added to (or, negative, taken from) one ledger account. */
export interface Leg extends Amount {
  account: string;
}

/** Raised when a posting would overdraw an internal account; the whole transaction rolls back. */
export class InsufficientFunds extends DomainError {
  constructor(readonly ledgerAccountId: string) {
    super('INSUFFICIENT_FUNDS', 'Insufficient funds in the source account');
  }
}

/** Ledger accounts for new internal accounts: three buckets each, none may go negative. */
export function bucketWrites(platformId: string, accounts: { id: string; currency: string }[], at: Date): RowWrite[] {
  return accounts.flatMap((a) =>
    (['AVAILABLE', 'HELD', 'PENDING'] as const).map((bucket) => ({
      table: 'LedgerAccount',
      row: {
        id: bucketAccount(a.id, bucket),
        platformId,
        currency: a.currency,
        internalAccountId: a.id,
        bucket,
        name: bucket,
        allowNegative: false,
        createdAt: at,
      },
    })),
  );
}

/** A validated posting: its rows to insert and the balance changes to apply. */
export interface Posting {
  transfer: {
    id: string;
    platformId: string;
    kind: string;
    transactionId: string | null;
    description: string | null;
    createdAt: Date;
  };
  legs: Leg[];
  deltas: Map<string, bigint>;
}

/** Checks that the legs balance per currency and folds them into one delta per account. */
export function posting(p: {
  platformId: string;
  kind: string;
  transactionId?: string;
  description?: string;
  legs: Leg[];
}): Posting {
  const legs = p.legs.filter((l) => l.amount !== 0n);
  const deltas = new Map<string, bigint>();
  for (const l of legs) deltas.set(l.account, (deltas.get(l.account) ?? 0n) + l.amount);
  for (const [currency, sum] of totalsByCurrency(legs)) {
    if (sum !== 0n) throw new Error(`unbalanced posting ${p.kind}: ${currency} legs sum to ${sum}`);
  }
  for (const [id, d] of deltas) if (d === 0n) deltas.delete(id);
  return {
    transfer: {
      id: newId('LedgerTransfer'),
      platformId: p.platformId,
      kind: p.kind,
      transactionId: p.transactionId ?? null,
      description: p.description ?? null,
      createdAt: now(),
    },
    legs,
    deltas,
  };
}

/**
 * One step of a payment, written atomically: guarded state moves (typed `Guard`s from the owning
 * domains' repositories, lib/core/sql.ts; a required one must match exactly one row),
 * rows to insert, a posting, and the balance events its new balances produce.
 */
export interface Step {
  moves: Guard[];
  writes: RowWrite[];
  posting: Posting | null;
  announce: repo.Announcement[];
}

const isDeadlock = (err: unknown) => pgCode(err) === '40P01';

/**
 * Runs a step. Given the client itself (no transaction) it is one statement (one round trip; a busy account stays locked
 * for that statement's commit only); inside a transaction it is two. Returns false when a
 * required move matched nothing (the payment had moved on): nothing was written. Throws
 * InsufficientFunds when an internal bucket would go negative: nothing was written, and a
 * caller's transaction must roll back. System accounts are opened on first use.
 */
export async function runStep(step: Step, tx: Tx): Promise<boolean> {
  const p = step.posting;
  const sql: repo.StepSql = {
    moves: step.moves,
    writes: [...(p && p.legs.length ? repo.transferRows(p.transfer, p.legs) : []), ...step.writes],
    deltas: p?.deltas ?? new Map(),
    announce: step.announce,
    at: now(),
  };
  const inTx = inTransaction(tx);
  for (let attempt = 0; ; attempt++) {
    try {
      const outcome = inTx ? await repo.writeStepIn(tx, sql) : await repo.writeStep(sql);
      if (outcome.kind === 'overdrawn') throw new InsufficientFunds(outcome.account);
      return outcome.kind === 'done';
    } catch (err) {
      // Rows are locked in a fixed order, but a step may still meet a transaction that locks
      // the same rows in another order; the statement left nothing behind, so it runs again.
      if (inTx || !isDeadlock(err) || attempt >= 3) throw err;
    }
  }
}

/**
 * Several independent steps written as one statement, for work that comes in batches (the
 * worker settling payouts): one round trip, and the accounts many steps touch (a platform's FX,
 * fee and outside-world accounts, a busy source account) move once, by the sum of the steps'
 * deltas. A balance event is recorded once per internal account, with its balance after all the
 * steps (no state in between was ever visible). When the batch cannot be written whole (a step
 * is stale, an account would be overdrawn, a deadlock), each step is written on its own, so one
 * step's outcome never decides another's. Returns each step's result: true, false (stale) or the
 * error it met.
 */
export async function runSteps(steps: Step[]): Promise<(boolean | Error)[]> {
  const alone = async () => {
    const out: (boolean | Error)[] = [];
    for (const step of steps)
      out.push(
        await runStep(step, db()).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
      );
    return out;
  };
  if (steps.length <= 1) return alone();
  const deltas = new Map<string, bigint>();
  const writes: RowWrite[] = [];
  const announce = new Map<string, repo.Announcement>();
  for (const step of steps) {
    const p = step.posting;
    if (p && p.legs.length) {
      writes.push(...repo.transferRows(p.transfer, p.legs));
      for (const [id, d] of p.deltas) deltas.set(id, (deltas.get(id) ?? 0n) + d);
    }
    writes.push(...step.writes);
    for (const a of step.announce) if (!announce.has(a.internalAccountId)) announce.set(a.internalAccountId, a);
  }
  for (const [id, d] of deltas) if (d === 0n) deltas.delete(id);
  try {
    const outcome = await repo.writeStep({
      moves: steps.flatMap((s) => s.moves),
      writes,
      deltas,
      announce: [...announce.values()],
      at: now(),
    });
    if (outcome.kind === 'done') return steps.map(() => true);
  } catch (err) {
    if (!isDeadlock(err)) throw err;
  }
  return alone();
}

/**
 * Posts one balanced transfer inside `tx`: its rows, the balances and the balance events in one
 * statement. Throws InsufficientFunds (the transaction must roll back).
 */
export async function post(
  tx: Tx,
  p: { platformId: string; kind: string; transactionId?: string; description?: string; legs: Leg[] },
  announce: repo.Announcement[] = [],
): Promise<string> {
  const validated = posting(p);
  if (!validated.legs.length) return '';
  await runStep({ moves: [], writes: [], posting: validated, announce }, tx);
  return validated.transfer.id;
}

export type { Announcement } from './repository';

export interface Balances {
  available: bigint;
  held: bigint;
  pending: bigint;
}

export async function balances(internalAccountIds: string[], tx: Tx): Promise<Map<string, Balances>> {
  const out = new Map<string, Balances>(internalAccountIds.map((id) => [id, { available: 0n, held: 0n, pending: 0n }]));
  if (!internalAccountIds.length) return out;
  for (const row of await repo.balancesOf(internalAccountIds, tx)) {
    const b = out.get(row.internalAccountId!)!;
    if (row.bucket === 'AVAILABLE') b.available = row.balance;
    else if (row.bucket === 'HELD') b.held = row.balance;
    else if (row.bucket === 'PENDING') b.pending = row.balance;
  }
  return out;
}

export const audit = repo.audit;

/** The kinds of the postings made for a transaction so far (whether a fact was already posted). */
export async function postedKinds(transactionId: string, tx: Tx): Promise<Set<string>> {
  return new Set((await repo.transfersOf(transactionId, tx)).map((r) => r.kind));
}
