import { newId } from '../ids';
import { now } from '../clock';
import type { Tx } from '../db';
import { ApiError } from '../http/errors';
import * as repo from './repository';

// The double-entry ledger. Every movement of money is one posting whose legs sum to zero per
// currency; balances are the sums of entries, kept as running totals on the ledger accounts.
// Internal-account buckets may never go negative (checked in the same statement that moves the
// money, and by a table constraint); system accounts for the outside world may.
export type Bucket = 'AVAILABLE' | 'HELD' | 'PENDING';
export type SystemAccount = `WORLD:${string}` | 'FX' | 'FEES' | 'PLATFORM_FEES' | 'SANDBOX' | 'CLEARING';

export const bucketAccount = (internalAccountId: string, bucket: Bucket) => `${internalAccountId}/${bucket}`;
export const systemAccount = (platformId: string, name: SystemAccount, currency: string) => `${platformId}/${name}/${currency}`;

export interface Leg {
  account: string;
  currency: string;
  amount: bigint;
}

/** Raised when a posting would overdraw an internal account; the whole transaction rolls back. */
export class InsufficientFunds extends ApiError {
  constructor(readonly ledgerAccountId: string) {
    super('INVALID_INPUT', 'Insufficient funds in the source account', { reason: 'INSUFFICIENT_FUNDS' });
  }
}

/** Ledger accounts for a new internal account: its three buckets, none may go negative. */
export async function openBuckets(platformId: string, internalAccountId: string, currency: string, tx: Tx): Promise<void> {
  const at = now();
  await repo.createAccounts(
    (['AVAILABLE', 'HELD', 'PENDING'] as const).map((bucket) => ({
      id: bucketAccount(internalAccountId, bucket),
      platformId,
      currency,
      internalAccountId,
      bucket,
      name: bucket,
      allowNegative: false,
      createdAt: at,
    })),
    tx,
  );
}

function parseSystemId(id: string): { platformId: string; name: string; currency: string } | null {
  const m = /^(Platform:[^/]+)\/([^/]+)\/([^/]+)$/.exec(id);
  return m ? { platformId: m[1], name: m[2], currency: m[3] } : null;
}

/** A validated posting: its rows to insert and the balance changes to apply. */
export interface Posting {
  transfer: { id: string; platformId: string; kind: string; transactionId: string | null; description: string | null; createdAt: Date };
  legs: Leg[];
  deltas: Map<string, bigint>;
}

/** Checks that the legs balance per currency and folds them into one delta per account. */
export function posting(p: { platformId: string; kind: string; transactionId?: string; description?: string; legs: Leg[] }): Posting {
  const legs = p.legs.filter((l) => l.amount !== 0n);
  const sums = new Map<string, bigint>();
  const deltas = new Map<string, bigint>();
  for (const l of legs) {
    sums.set(l.currency, (sums.get(l.currency) ?? 0n) + l.amount);
    deltas.set(l.account, (deltas.get(l.account) ?? 0n) + l.amount);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0n) throw new Error(`unbalanced posting ${p.kind}: ${currency} legs sum to ${sum}`);
  }
  for (const [id, d] of deltas) if (d === 0n) deltas.delete(id);
  return {
    transfer: { id: newId('LedgerTransfer'), platformId: p.platformId, kind: p.kind, transactionId: p.transactionId ?? null, description: p.description ?? null, createdAt: now() },
    legs,
    deltas,
  };
}

/** The rows of a posting, as statement fragments to combine with other writes. */
export const postingRows = repo.transferRows;

/**
 * Moves the balances of a posting whose rows are written. Throws InsufficientFunds when an
 * internal bucket would go negative (the caller's transaction must then roll back). System
 * accounts are created on first use.
 */
export async function applyPosting(tx: Tx, x: Posting, announce: repo.Announcement[] = []): Promise<void> {
  const { deltas } = x;
  if (!deltas.size) return;
  const changed = await repo.applyDeltasAnnouncing(deltas, announce, tx);
  if (changed.size === deltas.size) return;
  const missing = [...deltas.keys()].filter((id) => !changed.has(id));
  const present = await repo.existingIds(missing, tx);
  const toCreate = missing.filter((id) => !present.has(id)).map((id) => ({ id, sys: parseSystemId(id) }));
  const unknown = toCreate.find((c) => !c.sys);
  if (unknown) throw new Error(`ledger account ${unknown.id} does not exist`);
  const overdrawn = missing.find((id) => present.has(id));
  if (overdrawn) throw new InsufficientFunds(overdrawn);
  const at = now();
  await repo.createAccounts(
    toCreate.map(({ id, sys }) => ({ id, platformId: sys!.platformId, currency: sys!.currency, internalAccountId: null, bucket: 'SYSTEM', name: sys!.name, allowNegative: true, createdAt: at })),
    tx,
  );
  const retry = new Map(toCreate.map(({ id }) => [id, deltas.get(id)!]));
  const second = await repo.applyDeltas(retry, tx);
  if (second.size < retry.size) throw new Error('ledger system account could not be created');
}

/**
 * Posts one balanced transfer: the entries are written first and the balances moved last.
 * Moving a balance locks its row until the transaction ends, so callers post as late as they
 * can in their transaction and a busy account (a platform's funding account, the FX desk) is
 * held only briefly. Throws InsufficientFunds (the transaction must roll back).
 */
export async function post(
  tx: Tx,
  p: { platformId: string; kind: string; transactionId?: string; description?: string; legs: Leg[] },
  announce: repo.Announcement[] = [],
): Promise<string> {
  const x = posting(p);
  if (!x.legs.length) return '';
  await repo.insertTransfer(x.transfer, x.legs, tx);
  await applyPosting(tx, x, announce);
  return x.transfer.id;
}

export type { Announcement } from './repository';
export { BALANCE_MARKERS } from './repository';

export interface Balances {
  available: bigint;
  held: bigint;
  pending: bigint;
}

export async function balances(internalAccountIds: string[], tx?: Tx): Promise<Map<string, Balances>> {
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
