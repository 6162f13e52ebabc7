import { lockOne, Prisma, type Tx } from '../core/db';
import type { FileRow } from './file';
import type { RowError } from './rows';

export type ImportRow = Prisma.BulkCustomerImportGetPayload<object>;
export type ImportRowRecord = Prisma.BulkCustomerImportRowGetPayload<object>;

const INSERT_CHUNK = 2000;

export async function insert(
  job: { id: string; platformId: string; fileName: string | null; at: Date },
  rows: FileRow[],
  tx: Tx,
): Promise<ImportRow> {
  const created = await tx.bulkCustomerImport.create({
    data: {
      id: job.id,
      platformId: job.platformId,
      status: 'PENDING',
      fileName: job.fileName,
      total: rows.length,
      createdAt: job.at,
      updatedAt: job.at,
    },
  });
  // The rows travel as one JSON parameter per chunk: thousands of bound values per INSERT are
  // several times slower to plan (and PostgreSQL caps a statement at 65535 parameters).
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ n: r.rowNumber, d: r.data })));
    await tx.$executeRaw`
      INSERT INTO "BulkCustomerImportRow" ("importId", "rowNumber", "platformCustomerId", "data", "updatedAt")
      SELECT ${job.id}, (r->>'n')::int, r->'d'->>'platformCustomerId', r->'d', ${job.at}
      FROM jsonb_array_elements(${chunk}::jsonb) AS r`;
  }
  return created;
}

export function find(platformId: string, id: string, tx: Tx): Promise<ImportRow | null> {
  return tx.bulkCustomerImport.findFirst({ where: { id, platformId } });
}

export async function lock(id: string, tx: Tx): Promise<ImportRow | null> {
  return lockOne<ImportRow>(tx, 'BulkCustomerImport', Prisma.sql`"id" = ${id}`);
}

export function failedRows(importId: string, tx: Tx) {
  return tx.bulkCustomerImportRow.findMany({
    where: { importId, status: 'FAILED' },
    orderBy: { rowNumber: 'asc' },
    select: { error: true },
  });
}

/** Rows not yet settled, in file order. */
export function unsettledRows(importId: string, limit: number | undefined, tx: Tx): Promise<ImportRowRecord[]> {
  return tx.bulkCustomerImportRow.findMany({
    where: { importId, status: { in: ['PENDING', 'CREATING'] } },
    orderBy: { rowNumber: 'asc' },
    take: limit,
  });
}

export async function countUnsettled(importId: string, tx: Tx): Promise<number> {
  return tx.bulkCustomerImportRow.count({ where: { importId, status: { in: ['PENDING', 'CREATING'] } } });
}

/** Takes the lease for `owner` when the file is free (no lease, or an expired one). */
export async function acquireLease(id: string, owner: string, at: Date, until: Date, tx: Tx): Promise<boolean> {
  const n = await tx.$executeRaw`
    UPDATE "BulkCustomerImport" SET "leaseOwner" = ${owner}, "leaseUntil" = ${until}, "updatedAt" = ${at},
      "status" = CASE WHEN "status" = 'PENDING' THEN 'PROCESSING' ELSE "status" END
    WHERE "id" = ${id} AND "status" IN ('PENDING', 'PROCESSING')
      AND ("leaseOwner" IS NULL OR "leaseOwner" = ${owner} OR "leaseUntil" < ${at})`;
  return n === 1;
}

export async function releaseLease(id: string, owner: string, tx: Tx): Promise<void> {
  await tx.bulkCustomerImport.updateMany({
    where: { id, leaseOwner: owner },
    data: { leaseOwner: null, leaseUntil: null },
  });
}

/** Whether `owner` still holds the lease; extends it. Run in the transaction that settles a row. */
export async function renewLease(id: string, owner: string, at: Date, until: Date, tx: Tx): Promise<boolean> {
  const n = await tx.bulkCustomerImport.updateMany({
    where: { id, leaseOwner: owner, status: 'PROCESSING' },
    data: { leaseUntil: until, updatedAt: at },
  });
  return n.count === 1;
}

/**
 * Marks a row CREATING before create() is called for it, remembering which active customer
 * already held its platformCustomerId. Conditional on the attempt count read, so two runs can
 * never both claim one attempt.
 */
export async function claimRow(
  importId: string,
  rowNumber: number,
  seenAttempts: number,
  priorCustomerId: string | null,
  at: Date,
  tx: Tx,
): Promise<boolean> {
  const n = await tx.bulkCustomerImportRow.updateMany({
    where: { importId, rowNumber, attempts: seenAttempts, status: { in: ['PENDING', 'CREATING'] } },
    data: { status: 'CREATING', attempts: seenAttempts + 1, priorCustomerId, updatedAt: at },
  });
  return n.count === 1;
}

/** Settles a row and counts it, once: a row already settled is left alone (returns false). */
export async function settleRow(
  importId: string,
  rowNumber: number,
  outcome: { customerId: string } | { error: RowError },
  at: Date,
  tx: Tx,
): Promise<boolean> {
  const ok = 'customerId' in outcome;
  const n = await tx.bulkCustomerImportRow.updateMany({
    where: { importId, rowNumber, status: { in: ['PENDING', 'CREATING'] } },
    data: ok
      ? { status: 'CREATED', customerId: outcome.customerId, updatedAt: at }
      : { status: 'FAILED', error: outcome.error as unknown as Prisma.InputJsonValue, updatedAt: at },
  });
  if (n.count !== 1) return false;
  await tx.bulkCustomerImport.update({
    where: { id: importId },
    data: {
      processed: { increment: 1 },
      ...(ok ? { successful: { increment: 1 } } : { failed: { increment: 1 } }),
      updatedAt: at,
    },
  });
  return true;
}

export async function finish(
  id: string,
  status: 'COMPLETED' | 'FAILED',
  failure: string | null,
  at: Date,
  tx: Tx,
): Promise<ImportRow> {
  return tx.bulkCustomerImport.update({
    where: { id },
    data: { status, failure, completedAt: at, updatedAt: at, leaseOwner: null, leaseUntil: null },
  });
}
