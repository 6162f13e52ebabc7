import type { Tx } from '../core/db';
import { bucketAccount, post, systemAccount } from '../ledger/service';
import { announceBalances } from '../payments/balances';
import type { Plan } from './accounts';
import type { OperationRow } from './repository';

// The ledger postings of an operation's life, each one balanced posting tagged with the
// operation's id:
//   hold      an internal source's funds leave the spendable balance (at creation)
//   release   ... and come back (failed or expired before the provider took them)
//   fundsIn   the provider receives the input (fiat for a mint, tokens for a burn)
//   deliver   the provider issues tokens to the destination (mint) or pays fiat out (burn)
//   refund    the provider returns the input it had received (failed after fundsIn)
// Internal accounts touched get INTERNAL_ACCOUNT.BALANCE_UPDATED.
const planOf = (op: OperationRow) => op.plan as unknown as Plan;
const providerAccount = (op: OperationRow, currency: string) =>
  systemAccount(op.platformId, `WORLD:${planOf(op).provider}`, currency);

async function move(
  tx: Tx,
  op: OperationRow,
  kind: string,
  from: string,
  to: string,
  currency: string,
  amount: string,
) {
  await post(tx, {
    platformId: op.platformId,
    kind,
    transactionId: op.id,
    legs: [
      { account: from, currency, amount: -BigInt(amount) },
      { account: to, currency, amount: BigInt(amount) },
    ],
  });
}

async function announce(tx: Tx, op: OperationRow, internalAccountId: string | undefined) {
  if (internalAccountId) await announceBalances(tx, op.platformId, [internalAccountId]);
}

/** Holds an internal source's funds. Throws InsufficientFunds (the transaction must roll back). */
export async function hold(tx: Tx, op: OperationRow) {
  const i = planOf(op).in;
  if (!i.internalAccountId) return;
  await move(tx, op, 'STABLECOIN_HOLD', bucketAccount(i.internalAccountId, 'AVAILABLE'), i.from, i.currency, i.amount);
  await announce(tx, op, i.internalAccountId);
}

export async function release(tx: Tx, op: OperationRow) {
  const i = planOf(op).in;
  if (!i.internalAccountId) return;
  await move(tx, op, 'STABLECOIN_RELEASE', i.from, i.refundTo, i.currency, i.amount);
  await announce(tx, op, i.internalAccountId);
}

export async function fundsIn(tx: Tx, op: OperationRow) {
  const i = planOf(op).in;
  await move(tx, op, 'STABLECOIN_FUNDS_IN', i.from, providerAccount(op, i.currency), i.currency, i.amount);
  await announce(tx, op, i.internalAccountId);
}

export async function deliver(tx: Tx, op: OperationRow) {
  const o = planOf(op).out;
  const kind = op.operationType === 'MINT' ? 'STABLECOIN_MINT' : 'STABLECOIN_REDEEM';
  await move(tx, op, kind, providerAccount(op, o.currency), o.to, o.currency, o.amount);
  await announce(tx, op, o.internalAccountId);
}

export async function refund(tx: Tx, op: OperationRow) {
  const i = planOf(op).in;
  await move(tx, op, 'STABLECOIN_REFUND', providerAccount(op, i.currency), i.refundTo, i.currency, i.amount);
  await announce(tx, op, i.internalAccountId);
}
