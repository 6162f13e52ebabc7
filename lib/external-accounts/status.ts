import type { Tx } from '../core/db';
import { recordEvent } from '../events/outbox';
import * as repo from './repository';
import type { ExternalAccountStatus } from './schema';

// ExternalAccountStatus and the moves this service makes. Each move is one guarded update
// (`WHERE status IN (from)` on a live account) and one EXTERNAL_ACCOUNT.STATUS_UPDATED event with
// the account as data, in the same transaction.
//   (creation)                       → ACTIVE: bank accounts, Lightning, custodial wallets, and
//                                      wallets that need no ownership proof.
//   (creation)                       → PENDING_OWNERSHIP_VERIFICATION: a FIRST_PARTY self-custody
//                                      wallet of a customer in an SCA (EEA, Travel Rule) region,
//                                      or a FIRST_PARTY self-custody wallet of the platform itself.
//   PENDING_OWNERSHIP_VERIFICATION   → ACTIVE: ownership proven (wallet signature or liveness).
//   PENDING_OWNERSHIP_VERIFICATION   → UNVERIFIED: the attempt failed (invalid or expired signature,
//                                      failed liveness check).
//   UNVERIFIED                       → ACTIVE: a new challenge, started after the failure, succeeded.
//                                      (The specification's move; issuing the new challenge leaves
//                                      the account UNVERIFIED until it succeeds.)
//   any live status                  → INACTIVE: the account is deleted.
// PENDING and UNDER_REVIEW have no trigger here: no connected rail reviews accounts.
export const OWNERSHIP_OPEN: ExternalAccountStatus[] = ['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED'];

export type ExternalAccount = ReturnType<typeof present>;

export function present(row: repo.ExternalAccountRow) {
  return {
    id: row.id,
    ...(row.customerId ? { customerId: row.customerId } : {}),
    status: row.status as ExternalAccountStatus,
    ...(row.platformAccountId ? { platformAccountId: row.platformAccountId } : {}),
    ...(row.ownershipType ? { ownershipType: row.ownershipType as 'FIRST_PARTY' | 'THIRD_PARTY' } : {}),
    currency: row.currency,
    defaultUmaDepositAccount: row.defaultUmaDepositAccount,
    ...(row.beneficiaryVerificationStatus ? { beneficiaryVerificationStatus: row.beneficiaryVerificationStatus } : {}),
    ...(row.beneficiaryVerifiedName ? { beneficiaryVerifiedData: { fullName: row.beneficiaryVerifiedName } } : {}),
    accountInfo: row.accountInfo as { accountType: string; [k: string]: unknown },
  };
}

/** Moves a live account from one of `from` to `to`; null (and no event) when it was not in `from`. */
export async function transition(
  tx: Tx,
  platformId: string,
  id: string,
  from: ExternalAccountStatus[],
  to: ExternalAccountStatus,
  at: Date,
) {
  const row = await repo.setStatus(id, from, to, at, tx);
  if (!row) return null;
  const account = present(row);
  await recordEvent(tx, platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED', account);
  return account;
}
