import { db } from '../core/db';

// What the platform holds per currency, summed over its internal accounts' buckets (customers'
// and its own): the console's overview. System accounts (the outside world, FX, fees) are left out.
export interface CurrencyTotals {
  currency: string;
  available: bigint;
  held: bigint;
  pending: bigint;
}

export async function totalsByCurrency(platformId: string): Promise<CurrencyTotals[]> {
  const rows = await db().$queryRaw<{ currency: string; bucket: string; total: bigint }[]>`
    SELECT "currency", "bucket", COALESCE(sum("balance"), 0)::bigint AS total FROM "LedgerAccount"
    WHERE "platformId" = ${platformId} AND "internalAccountId" IS NOT NULL
    GROUP BY "currency", "bucket" ORDER BY "currency"`;
  const out = new Map<string, CurrencyTotals>();
  for (const r of rows) {
    const t = out.get(r.currency) ?? { currency: r.currency, available: 0n, held: 0n, pending: 0n };
    if (r.bucket === 'AVAILABLE') t.available = r.total;
    else if (r.bucket === 'HELD') t.held = r.total;
    else if (r.bucket === 'PENDING') t.pending = r.total;
    out.set(r.currency, t);
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
