import { effect } from '../core/idempotency';
import { invalidInput, notFound } from '../core/errors';
import { recordEvent } from '../events/outbox';
import * as accounts from '../accounts/service';
import * as ledger from '../ledger/service';

// POST /sandbox/internal-accounts/{id}/fund: money arriving from outside the system, booked as a
// ledger posting from the platform's SANDBOX source account, never as a balance write.
export async function fundInternalAccount(platformId: string, accountId: string, amount: bigint) {
  return effect(async (tx) => {
    const account = await accounts.findRow(platformId, accountId, tx);
    if (!account) throw notFound('REFERENCE_NOT_FOUND', `Internal account ${accountId}`);
    if (account.status !== 'ACTIVE')
      throw invalidInput(`Internal account ${accountId} is ${account.status} and cannot receive funds`);
    await ledger.post(tx, {
      platformId,
      kind: 'SANDBOX_FUNDING',
      description: `Sandbox funding of ${accountId}`,
      legs: [
        { account: ledger.bucketAccount(accountId, 'AVAILABLE'), currency: account.currency, amount },
        {
          account: ledger.systemAccount(platformId, 'SANDBOX', account.currency),
          currency: account.currency,
          amount: -amount,
        },
      ],
    });
    const funded = await accounts.get(platformId, accountId, tx);
    await recordEvent(tx, platformId, 'INTERNAL_ACCOUNT.BALANCE_UPDATED', funded);
    return funded;
  });
}
