import { findRow } from '../accounts/service';
import type { InternalAccountRow } from '../accounts/repository';
import type { Tx } from '../core/db';
import { invalidInput, notFound } from '../core/errors';

// The embedded wallet an auth request is about: it must exist on the platform, be an
// EMBEDDED_WALLET and not be closed.
export async function walletAccount(
  platformId: string,
  accountId: string,
  tx: Tx,
  field = 'accountId',
): Promise<InternalAccountRow> {
  const row = await findRow(platformId, accountId, tx);
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${accountId}`);
  if (row.type !== 'EMBEDDED_WALLET') {
    throw invalidInput(
      `Internal account ${accountId} is ${row.type}; wallet authentication applies to EMBEDDED_WALLET accounts only`,
      [{ field, message: 'must be an EMBEDDED_WALLET internal account' }],
    );
  }
  if (row.status === 'CLOSED')
    throw invalidInput(`Internal account ${accountId} is closed`, [{ field, message: 'must not be a closed account' }]);
  return row;
}
