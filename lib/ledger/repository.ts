import { randomUUID } from 'node:crypto';
import { Prisma, db, type Tx } from '../db';

export interface AccountSeed {
  id: string;
  platformId: string;
  currency: string;
  internalAccountId: string | null;
  bucket: string;
  name: string;
  allowNegative: boolean;
  createdAt: Date;
}

export async function createAccounts(rows: AccountSeed[], tx: Tx): Promise<void> {
  if (rows.length) await tx.ledgerAccount.createMany({ data: rows, skipDuplicates: true });
}

/**
 * Applies every delta in one statement. A row is only changed when it may take the delta
 * (overdraft-allowed, or the balance stays >= 0); concurrent postings on the same row are
 * serialized by the row lock and re-checked against the committed balance. Returns the ids
 * that were changed: a missing id means "does not exist" or "would go negative".
 */
export async function applyDeltas(deltas: Map<string, bigint>, tx: Tx): Promise<Set<string>> {
  const values = Prisma.join([...deltas].map(([id, amount]) => Prisma.sql`(${id}, ${amount}::bigint)`));
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "LedgerAccount" AS a SET "balance" = a."balance" + v.amount
    FROM (VALUES ${values}) AS v(id, amount)
    WHERE a."id" = v.id AND (a."allowNegative" OR a."balance" + v.amount >= 0)
    RETURNING a."id"`;
  return new Set(rows.map((r) => r.id));
}

export async function existingIds(ids: string[], tx: Tx): Promise<Set<string>> {
  const rows = await tx.ledgerAccount.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export async function insertTransfer(
  t: { id: string; platformId: string; kind: string; transactionId: string | null; description: string | null; createdAt: Date },
  legs: { account: string; currency: string; amount: bigint }[],
  tx: Tx,
): Promise<void> {
  await tx.ledgerTransfer.create({
    data: {
      ...t,
      entries: {
        createMany: {
          data: legs.map((l) => ({ id: randomUUID(), ledgerAccountId: l.account, currency: l.currency, amount: l.amount, createdAt: t.createdAt })),
        },
      },
    },
  });
}

export function balancesOf(internalAccountIds: string[], tx: Tx = db()) {
  return tx.ledgerAccount.findMany({
    where: { internalAccountId: { in: internalAccountIds } },
    select: { internalAccountId: true, bucket: true, balance: true },
  });
}

export function entriesForTransaction(transactionId: string, tx: Tx = db()) {
  return tx.ledgerTransfer.findMany({ where: { transactionId }, include: { entries: true }, orderBy: { createdAt: 'asc' } });
}

/** Ledger health, for tests and the console: every figure here must be zero/empty. */
export async function audit(platformId?: string) {
  const scope = platformId ? Prisma.sql`WHERE a."platformId" = ${platformId}` : Prisma.empty;
  const scopeT = platformId ? Prisma.sql`WHERE t."platformId" = ${platformId}` : Prisma.empty;
  const currencySums = await db().$queryRaw<{ platformId: string; currency: string; total: bigint }[]>`
    SELECT a."platformId", a."currency", SUM(a."balance")::bigint AS total FROM "LedgerAccount" a ${scope}
    GROUP BY a."platformId", a."currency" HAVING SUM(a."balance") <> 0`;
  const negative = await db().$queryRaw<{ id: string; balance: bigint }[]>`
    SELECT a."id", a."balance" FROM "LedgerAccount" a ${scope}
    ${platformId ? Prisma.sql`AND` : Prisma.sql`WHERE`} NOT a."allowNegative" AND a."balance" < 0`;
  const drift = await db().$queryRaw<{ id: string; balance: bigint; entries: bigint }[]>`
    SELECT a."id", a."balance", COALESCE(SUM(e."amount"), 0)::bigint AS entries
    FROM "LedgerAccount" a LEFT JOIN "LedgerEntry" e ON e."ledgerAccountId" = a."id" ${scope}
    GROUP BY a."id", a."balance" HAVING a."balance" <> COALESCE(SUM(e."amount"), 0)`;
  const unbalanced = await db().$queryRaw<{ id: string; currency: string; total: bigint }[]>`
    SELECT t."id", e."currency", SUM(e."amount")::bigint AS total
    FROM "LedgerTransfer" t JOIN "LedgerEntry" e ON e."transferId" = t."id" ${scopeT}
    GROUP BY t."id", e."currency" HAVING SUM(e."amount") <> 0`;
  return { currencySums, negative, drift, unbalanced };
}
