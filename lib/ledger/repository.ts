import { randomUUID } from 'node:crypto';
import { Prisma, db, type Tx } from '../db';
import { insertRow, insertRows } from '../sql';

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
 *
 * Rows are locked in id order first: two postings touching the same accounts then queue
 * instead of deadlocking (an UPDATE over a join locks rows in whatever order the plan yields).
 */
export async function applyDeltas(deltas: Map<string, bigint>, tx: Tx): Promise<Set<string>> {
  const ids = [...deltas.keys()].sort();
  const values = Prisma.join(ids.map((id) => Prisma.sql`(${id}, ${deltas.get(id)!}::bigint)`));
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH locked AS MATERIALIZED (
      SELECT "id" FROM "LedgerAccount" WHERE "id" IN (${Prisma.join(ids)}) ORDER BY "id" FOR NO KEY UPDATE
    )
    UPDATE "LedgerAccount" AS a SET "balance" = a."balance" + v.amount
    FROM (VALUES ${values}) AS v(id, amount), locked
    WHERE a."id" = v.id AND locked."id" = a."id" AND (a."allowNegative" OR a."balance" + v.amount >= 0)
    RETURNING a."id"`;
  return new Set(rows.map((r) => r.id));
}

/** A balance-update event rendered by the statement that moves the money (see applyDeltas). */
export interface Announcement {
  eventId: string;
  platformId: string;
  internalAccountId: string;
  createdAt: Date;
  /** The event body with BALANCE_MARKERS where the new balances go. */
  template: string;
}

/** Impossible amounts written into an announcement's body and replaced by the real balances. */
export const BALANCE_MARKERS = { available: -9223372036854775001n, total: -9223372036854775002n } as const;

/**
 * applyDeltas that also records INTERNAL_ACCOUNT.BALANCE_UPDATED events with the balances it
 * produced, in the same statement: on a busy account the row lock then lasts one statement and
 * the commit, where a separate read and insert would hold it across two more round trips.
 */
export async function applyDeltasAnnouncing(deltas: Map<string, bigint>, announce: Announcement[], tx: Tx): Promise<Set<string>> {
  if (!announce.length) return applyDeltas(deltas, tx);
  const ids = [...deltas.keys()].sort();
  const values = Prisma.join(ids.map((id) => Prisma.sql`(${id}, ${deltas.get(id)!}::bigint)`));
  const accounts = Prisma.join(announce.map((a) => a.internalAccountId));
  const events = Prisma.join(announce.map((a) => Prisma.sql`(${a.eventId}, ${a.platformId}, ${a.internalAccountId}, ${a.template}, ${a.createdAt}::timestamp(3))`));
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH locked AS MATERIALIZED (
      SELECT "id" FROM "LedgerAccount" WHERE "id" IN (${Prisma.join(ids)}) ORDER BY "id" FOR NO KEY UPDATE
    ),
    upd AS (
      UPDATE "LedgerAccount" AS a SET "balance" = a."balance" + v.amount
      FROM (VALUES ${values}) AS v(id, amount), locked
      WHERE a."id" = v.id AND locked."id" = a."id" AND (a."allowNegative" OR a."balance" + v.amount >= 0)
      RETURNING a."id", a."internalAccountId", a."bucket", a."balance"
    ),
    bal AS (
      SELECT "internalAccountId", "bucket", "balance" FROM upd WHERE "internalAccountId" IN (${accounts})
      UNION ALL
      SELECT l."internalAccountId", l."bucket", l."balance" FROM "LedgerAccount" l
      WHERE l."internalAccountId" IN (${accounts}) AND l."id" NOT IN (SELECT "id" FROM upd)
    ),
    agg AS (
      SELECT "internalAccountId",
        COALESCE(SUM("balance") FILTER (WHERE "bucket" = 'AVAILABLE'), 0)::bigint AS available,
        COALESCE(SUM("balance"), 0)::bigint AS total
      FROM bal GROUP BY "internalAccountId"
    ),
    ev AS (
      INSERT INTO "Event" ("id", "platformId", "type", "payload", "createdAt")
      SELECT e.id, e.platform, 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        replace(replace(e.template, ${BALANCE_MARKERS.available.toString()}, agg.available::text), ${BALANCE_MARKERS.total.toString()}, agg.total::text),
        e.at
      FROM (VALUES ${events}) AS e(id, platform, account, template, at) JOIN agg ON agg."internalAccountId" = e.account
    )
    SELECT "id" FROM upd`;
  return new Set(rows.map((r) => r.id));
}

export async function existingIds(ids: string[], tx: Tx): Promise<Set<string>> {
  const rows = await tx.ledgerAccount.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

type TransferRow = { id: string; platformId: string; kind: string; transactionId: string | null; description: string | null; createdAt: Date };

/** The two INSERTs of a posting (transfer, entries), as fragments for a combined statement. */
export function transferRows(t: TransferRow, legs: { account: string; currency: string; amount: bigint }[]): [Prisma.Sql, Prisma.Sql] {
  return [
    insertRow('LedgerTransfer', t),
    insertRows('LedgerEntry', legs.map((l) => ({ id: randomUUID(), transferId: t.id, ledgerAccountId: l.account, currency: l.currency, amount: l.amount, createdAt: t.createdAt }))),
  ];
}

/** The posting and its entries in one statement (entry account references are checked at commit). */
export async function insertTransfer(t: TransferRow, legs: { account: string; currency: string; amount: bigint }[], tx: Tx): Promise<void> {
  const [transfer, entries] = transferRows(t, legs);
  await tx.$executeRaw`WITH transfer AS (${transfer}) ${entries}`;
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
