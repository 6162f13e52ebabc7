import { db } from '../core/db';
import { prefixEnd, runningTotals } from '../core/running-totals';

// What the platform holds per currency, summed over its internal accounts' buckets (customers'
// and its own): the console's overview. System accounts (the outside world, FX, fees) are left out.
export interface CurrencyTotals {
  currency: string;
  available: bigint;
  held: bigint;
  pending: bigint;
}

export async function totalsByCurrency(platformId: string): Promise<CurrencyTotals[]> {
  // Kept as postings happen (corridor_apply_deltas records each one's net change per currency
  // and bucket): a few rows at any number of accounts.
  const totals = await runningTotals(platformId, 'balance:', prefixEnd('balance:'));
  const out = new Map<string, CurrencyTotals>();
  for (const [key, { amount }] of totals) {
    const [, currency, bucket] = key.split(':');
    const t = out.get(currency) ?? { currency, available: 0n, held: 0n, pending: 0n };
    if (bucket === 'AVAILABLE') t.available = amount;
    else if (bucket === 'HELD') t.held = amount;
    else if (bucket === 'PENDING') t.pending = amount;
    out.set(currency, t);
  }
  return [...out.values()];
}

export interface PostingLine {
  ledgerAccountId: string;
  /** AVAILABLE | HELD | PENDING of an internal account, or SYSTEM. */
  bucket: string;
  /** The internal account, or the system account's name (WORLD:<rail>, FX, FEES...). */
  account: string;
  currency: string;
  amount: bigint;
}

export interface PostingView {
  id: string;
  kind: string;
  description: string | null;
  createdAt: Date;
  lines: PostingLine[];
}

/** The balanced postings a transaction made, oldest first, each line naming its account. */
export async function postingsOf(transactionId: string): Promise<PostingView[]> {
  const transfers = await db().ledgerTransfer.findMany({
    where: { transactionId },
    include: { entries: true },
    orderBy: { createdAt: 'asc' },
  });
  const ids = [...new Set(transfers.flatMap((t) => t.entries.map((e) => e.ledgerAccountId)))];
  const accounts = new Map(
    (await db().ledgerAccount.findMany({ where: { id: { in: ids } } })).map((a) => [a.id, a] as const),
  );
  return transfers.map((t) => ({
    id: t.id,
    kind: t.kind,
    description: t.description,
    createdAt: t.createdAt,
    lines: t.entries.map((e) => {
      const a = accounts.get(e.ledgerAccountId);
      return {
        ledgerAccountId: e.ledgerAccountId,
        bucket: a?.bucket ?? '?',
        account: a?.internalAccountId ?? a?.name ?? e.ledgerAccountId,
        currency: e.currency,
        amount: e.amount,
      };
    }),
  }));
}
