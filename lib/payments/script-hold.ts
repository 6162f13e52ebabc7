import { type Tx } from '../core/db';
import { log } from '../core/log';
import { isSandbox } from '../core/mode';
import * as txRepo from './transactions/repository';
import { planOf } from './plan';

// The one rule both settlement jobs (payments' settlement.ts, transfers/settlement.ts) follow
// before applying a sandbox scripted outcome, kept here so neither imports the other for it.
type Row = txRepo.TransactionRow;

/** Kept on a payment whose scripted outcome a production instance will not apply (below). */
export const SCRIPT_NOT_APPLIED =
  'a sandbox scripted outcome is not applied in production: no provider reported on this payment; it waits for staff';

/**
 * Whether this instance may apply the outcome stored on the row. The sandbox applies its script.
 * Production applies only the completion of a payment that never leaves the service (to an
 * internal account, or to a customer's UMA address here), where no outside party has anything to
 * report. Anything else in production — a sandbox counterparty or suffix script on a row written
 * while the database served a sandbox instance, a /transfer-out or /transfer-in scripted by its
 * account number — would be a made-up provider report, so the payment stays PROCESSING, its money
 * held, with the reason on it: failing and refunding it would be just as invented, and handing it
 * to the rail cannot work for a UMA counterparty that does not exist. Staff decide.
 */
export function mayApply(row: Row): boolean {
  if (isSandbox()) return true;
  if (row.scenario !== 'SUCCESS' || !row.plan) return false; // a /transfer-in has no plan: a pull from outside
  const kind = planOf(row).route.kind;
  return kind === 'INTERNAL' || kind === 'UMA_CUSTOMER';
}

/** Whether the payment is held by the rule above (what the console and the metrics show). */
export const isHeldScript = (row: Pick<Row, 'railStatus' | 'railNote'>) =>
  row.railStatus === txRepo.HELD_RAIL_STATUS && row.railNote === SCRIPT_NOT_APPLIED;

/** Leaves the payment PROCESSING, held with the reason (txRepo.holdProcessing), and says so in the log. */
export async function leaveUnapplied(row: Row, tx: Tx): Promise<void> {
  log().warn({ transactionId: row.id, scenario: row.scenario }, SCRIPT_NOT_APPLIED);
  await txRepo.holdProcessing(row.id, SCRIPT_NOT_APPLIED, tx);
}
