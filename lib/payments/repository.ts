import { Prisma, db, queryIn, type Tx } from '../db';
import { prefixedColumns, unprefix } from '../sql';
import type { TransactionRow } from '../transactions/repository';
import type { InternalAccountRow } from '../accounts/repository';
import type { CustomerRow } from '../customers/repository';
import type { ExternalAccountRow } from '../external-accounts/repository';

const T = Prisma.TransactionScalarFieldEnum;
const A = Prisma.InternalAccountScalarFieldEnum;
const C = Prisma.CustomerScalarFieldEnum;
const E = Prisma.ExternalAccountScalarFieldEnum;

export interface Parties {
  /** The platform's internal account of that id with its owning customer, or null. */
  source: { account: InternalAccountRow; customer: CustomerRow | null } | null;
  /** The platform's live external account of that id, or null. */
  external: ExternalAccountRow | null;
}

/**
 * The two ends of the usual payment, an internal account (with its owner) paying an external
 * account, in one read: the same rows accounts.findWithOwner and externalAccounts.findLiveAny
 * return, for one round trip instead of two on every quote.
 */
export async function findParties(platformId: string, internalAccountId: string, externalAccountId: string, tx: Tx = db()): Promise<Parties> {
  const [row] = await queryIn<Record<string, unknown>>(tx, Prisma.sql`
    SELECT ${prefixedColumns('a', A, 'a__')}, ${prefixedColumns('c', C, 'c__')}, ${prefixedColumns('e', E, 'e__')}
    FROM (VALUES (1)) AS one(x)
    LEFT JOIN "InternalAccount" a ON a."id" = ${internalAccountId} AND a."platformId" = ${platformId}
    LEFT JOIN "Customer" c ON c."id" = a."customerId"
    LEFT JOIN "ExternalAccount" e ON e."id" = ${externalAccountId} AND e."platformId" = ${platformId} AND e."deletedAt" IS NULL`);
  const account = unprefix<InternalAccountRow>(row, A, 'a__');
  return { source: account ? { account, customer: unprefix<CustomerRow>(row, C, 'c__') } : null, external: unprefix<ExternalAccountRow>(row, E, 'e__') };
}

/**
 * Payments with the internal accounts their plans name (funding source and destination), in one
 * read: what settlement steps need to build their postings and balance events.
 */
export async function findWithAccounts(transactionIds: string[], tx: Tx = db()): Promise<Map<string, { row: TransactionRow; accounts: InternalAccountRow[] }>> {
  const out = new Map<string, { row: TransactionRow; accounts: InternalAccountRow[] }>();
  if (!transactionIds.length) return out;
  const rows = await queryIn<Record<string, unknown>>(tx, Prisma.sql`
    SELECT ${prefixedColumns('t', T, 't__')}, ${prefixedColumns('a', A, 'a__')}
    FROM "Transaction" t
    LEFT JOIN "InternalAccount" a ON a."id" IN (t."plan" #>> '{funding,internalAccountId}', t."plan" #>> '{route,internalAccountId}')
    WHERE t."id" IN (${Prisma.join(transactionIds)})`);
  for (const r of rows) {
    const row = unprefix<TransactionRow>(r, T, 't__')!;
    const entry = out.get(row.id) ?? { row, accounts: [] };
    const account = unprefix<InternalAccountRow>(r, A, 'a__');
    if (account) entry.accounts.push(account);
    out.set(row.id, entry);
  }
  return out;
}
