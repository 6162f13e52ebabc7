import { formatMajorInput } from '../core/amount-input';
import { now } from '../core/clock';
import { db } from '../core/db';
import { DomainError, notFound } from '../core/errors';
import { effect } from '../core/idempotency';
import * as ledger from '../ledger/service';
import { InsufficientFunds } from '../ledger/service';
import { announceBalances } from './balances';
import * as txRepo from './transactions/repository';
import { PULL_RETURNED } from './rail';
import { checkReason } from './rail-refund-ops';

// A /transfer-in pull the payer's bank reversed after it completed (rail-engine.ts applyPullEvent):
// the credit stayed in the customer's account, which the customer may have spent. Staff take it
// back, with a reason: what the account's available balance covers leaves it, the rest is owed by
// the customer (PAYER_RECEIVABLE), and the whole amount goes out with the reversal to the payer's
// bank. One guarded ledger step on the state the page showed: a double click, two staff at once or
// a retried request take it back once.
type Row = txRepo.TransactionRow;

/** After staff took back a reversed pull's credit. */
export const PULL_TAKEN_BACK = 'PULL_TAKEN_BACK';

export const canTakeBack = (row: Row) =>
  row.type === 'INCOMING' && row.status === 'COMPLETED' && row.railStatus === PULL_RETURNED && !!row.internalAccountId;

/** What taking back would move now: from the account's available balance, and owed by the customer. */
export async function takeBackPlan(row: Row) {
  const amount = row.receivedAmount!;
  const account = row.internalAccountId!;
  const { available } = (await ledger.balances([account], db())).get(account)!;
  const fromAccount = available <= 0n ? 0n : available < amount ? available : amount;
  return { amount, fromAccount, owed: amount - fromAccount, currency: row.receivedCurrency! };
}

export interface TakeBackResult {
  transactionId: string;
  railStatus: string;
  /** Minor units as decimal strings (the audit entry is JSON). */
  amount: string;
  fromAccount: string;
  customerOwes: string;
  currency: string;
}

const stale = (id: string) =>
  new DomainError(
    'INVALID_STATE_TRANSITION',
    `The reversed pull ${id} was taken back already, or its account's balance changed meanwhile; reload the page`,
  );

export async function takeBackReversedPull(platformId: string, id: string, reason: string): Promise<TakeBackResult> {
  const why = checkReason(reason);
  const row = await txRepo.findById(platformId, id, db());
  if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
  if (!canTakeBack(row)) throw stale(id);
  const plan = await takeBackPlan(row);
  const c = plan.currency;
  const money = (v: bigint) => `${formatMajorInput(v, c)} ${c}`;
  const at = now();
  const data = {
    railStatus: PULL_TAKEN_BACK,
    railNote: `taken back by staff: ${money(plan.fromAccount)} from the account${
      plan.owed > 0n ? `, ${money(plan.owed)} owed by the customer (payer receivable)` : ''
    }: ${why}`,
    updatedAt: at,
  };
  const step: ledger.Step = {
    moves: [
      {
        table: 'Transaction',
        where: { id, status: 'COMPLETED', railStatus: PULL_RETURNED },
        set: data,
        required: true,
      },
    ],
    writes: [],
    posting: ledger.posting({
      platformId,
      kind: 'PULL_REVERSAL',
      transactionId: id,
      legs: [
        { account: ledger.bucketAccount(row.internalAccountId!, 'AVAILABLE'), currency: c, amount: -plan.fromAccount },
        { account: ledger.systemAccount(platformId, 'PAYER_RECEIVABLE', c), currency: c, amount: -plan.owed },
        {
          account: ledger.systemAccount(platformId, `WORLD:${row.paymentRail ?? 'ACH'}`, c),
          currency: c,
          amount: plan.amount,
        },
      ],
    }),
    announce: [],
  };
  try {
    return await effect(async (tx) => {
      if (!(await ledger.runStep(step, tx))) throw stale(id);
      await announceBalances(tx, platformId, [row.internalAccountId!]);
      return {
        transactionId: id,
        railStatus: PULL_TAKEN_BACK,
        amount: String(plan.amount),
        fromAccount: String(plan.fromAccount),
        customerOwes: String(plan.owed),
        currency: c,
      };
    });
  } catch (err) {
    // The customer spent from the account after the plan was read: nothing was written.
    if (err instanceof InsufficientFunds) throw stale(id);
    throw err;
  }
}
