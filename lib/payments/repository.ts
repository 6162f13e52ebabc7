import { Prisma, db, type Tx } from '../db';
import { prefixedColumns, unprefix } from '../sql';
import type { TransactionRow } from '../transactions/repository';
import type { InternalAccountRow } from '../accounts/repository';

const T = Prisma.TransactionScalarFieldEnum;
const A = Prisma.InternalAccountScalarFieldEnum;

/**
 * A payment with the internal accounts its plan names (funding source and destination), in one
 * read: what a settlement step needs to build its posting and balance events.
 */
export async function findWithAccounts(transactionId: string, tx: Tx = db()): Promise<{ row: TransactionRow; accounts: InternalAccountRow[] } | null> {
  const rows = await tx.$queryRaw<Record<string, unknown>[]>`
    SELECT ${prefixedColumns('t', T, 't__')}, ${prefixedColumns('a', A, 'a__')}
    FROM "Transaction" t
    LEFT JOIN "InternalAccount" a ON a."id" IN (t."plan" #>> '{funding,internalAccountId}', t."plan" #>> '{route,internalAccountId}')
    WHERE t."id" = ${transactionId}`;
  if (!rows.length) return null;
  return {
    row: unprefix<TransactionRow>(rows[0], T, 't__')!,
    accounts: rows.map((r) => unprefix<InternalAccountRow>(r, A, 'a__')).filter((a): a is InternalAccountRow => a !== null),
  };
}
