import { Prisma, queryIn, type Tx } from '../core/db';
import { prefixedColumns, unprefix } from '../core/sql';
import type { TransactionRow } from './transactions/repository';
import type { InternalAccountRow } from '../accounts/repository';

const T = Prisma.TransactionScalarFieldEnum;
const A = Prisma.InternalAccountScalarFieldEnum;

/**
 * Payments with the internal accounts their plans name (funding source and destination), in one
 * read: what settlement steps need to build their postings and balance events.
 */
export async function findWithAccounts(
  transactionIds: string[],
  tx: Tx,
): Promise<Map<string, { row: TransactionRow; accounts: InternalAccountRow[] }>> {
  const out = new Map<string, { row: TransactionRow; accounts: InternalAccountRow[] }>();
  if (!transactionIds.length) return out;
  const rows = await queryIn<Record<string, unknown>>(
    tx,
    Prisma.sql`
    SELECT ${prefixedColumns('t', T, 't__')}, ${prefixedColumns('a', A, 'a__')}
    FROM "Transaction" t
    LEFT JOIN "InternalAccount" a ON a."id" IN (t."plan" #>> '{funding,internalAccountId}', t."plan" #>> '{route,internalAccountId}')
    WHERE t."id" IN (${Prisma.join(transactionIds)})`,
  );
  for (const r of rows) {
    const row = unprefix<TransactionRow>(r, T, 't__')!;
    const entry = out.get(row.id) ?? { row, accounts: [] };
    const account = unprefix<InternalAccountRow>(r, A, 'a__');
    if (account) entry.accounts.push(account);
    out.set(row.id, entry);
  }
  return out;
}
