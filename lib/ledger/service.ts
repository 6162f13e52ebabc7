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

/**
 * Posts one balanced transfer. Throws InsufficientFunds (nothing written) when an internal
 * bucket would go negative. System accounts are created on first use.
 */
export async function post(
  tx: Tx,
  p: { platformId: string; kind: string; transactionId?: string; description?: string; legs: Leg[] },
): Promise<string> {
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
  if (legs.length === 0) return '';
  for (const [id, d] of deltas) if (d === 0n) deltas.delete(id);

  let changed = await repo.applyDeltas(deltas, tx);
  if (changed.size < deltas.size) {
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
    changed = new Set([...changed, ...second]);
  }
  const id = newId('LedgerTransfer');
  await repo.insertTransfer(
    { id, platformId: p.platformId, kind: p.kind, transactionId: p.transactionId ?? null, description: p.description ?? null, createdAt: now() },
    legs,
    tx,
  );
  return id;
}

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
