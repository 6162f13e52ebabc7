import { now } from '../core/clock';
import { db } from '../core/db';
import { DomainError, notFound } from '../core/errors';
import { effect } from '../core/idempotency';
import { enqueue } from '../jobs/queue';
import * as txRepo from './transactions/repository';
import { planOf } from './plan';
import { SUBMIT_JOB } from './rail';
import { isPullFunded } from './rail-collect';
import { isHeldScript, SCRIPT_NOT_APPLIED } from './script-hold';

// Staff resolve a payment held because production applies no sandbox script (script-hold.ts) by
// handing it to the payment rail: the script is replaced by WAITING_FOR_RAIL and the instruction
// is submitted (rail-engine.ts), so a connected rail carries it and its events decide, or it
// waits visibly with "no payment rail connected". Only where the rail has something to carry: a
// payout to an external account or a /transfer-in's pull from one. A held payment to a sandbox
// UMA counterparty (no one to pay) or a quote funded by a pull (its pull would come first, and
// its script says nothing about it) is not offered this.
type Row = txRepo.TransactionRow;

/** Whether staff may hand this held payment to the rail now. */
export function canHandToRail(row: Row): boolean {
  if (row.status !== 'PROCESSING' || !isHeldScript(row)) return false;
  if (row.type === 'INCOMING') return !row.plan && !!row.externalAccountId && !!row.internalAccountId;
  return row.type === 'OUTGOING' && !!row.plan && !isPullFunded(row) && planOf(row).route.kind === 'EXTERNAL';
}

export interface HandToRailResult {
  transactionId: string;
  /** The script replaced. */
  scenario: string;
  amount: string;
  currency: string;
}

const stale = (id: string) =>
  new DomainError(
    'INVALID_STATE_TRANSITION',
    `Transaction ${id} is not a held payment the rail can carry (or was handed to the rail already); reload the page`,
  );

/**
 * Hands a held payment to the rail, once: one guarded update on the state staff saw (PROCESSING,
 * held, the same script) with the submit job in the same transaction, so a double click or two
 * staff at once submit it once and the second is refused.
 */
export async function handHeldToRail(platformId: string, id: string): Promise<HandToRailResult> {
  const row = await txRepo.findById(platformId, id, db());
  if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
  if (!canHandToRail(row)) throw stale(id);
  const scenario = row.scenario!;
  return effect(async (tx) => {
    const moved = await tx.transaction.updateMany({
      where: {
        id,
        platformId,
        status: 'PROCESSING',
        scenario,
        railStatus: txRepo.HELD_RAIL_STATUS,
        railNote: SCRIPT_NOT_APPLIED,
      },
      // railStatus null: not handed over yet, which is what the submit job takes up.
      data: { scenario: 'WAITING_FOR_RAIL', railStatus: null, railNote: null, updatedAt: now() },
    });
    if (moved.count !== 1) throw stale(id);
    await enqueue(tx, { platformId, kind: SUBMIT_JOB, payload: { transactionId: id } });
    return {
      transactionId: id,
      scenario,
      amount: String(row.receivedAmount ?? row.sentAmount ?? 0n),
      currency: row.receivedCurrency ?? row.sentCurrency ?? '',
    };
  });
}
