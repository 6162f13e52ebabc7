import { db } from '../core/db';
import * as txRepo from './transactions/repository';
import { planOf } from './plan';
import { NO_RAIL_CONNECTED, UNCONNECTED_RECHECK_SECONDS } from './rail';
import { isPullFunded, pullReferenceOf, PULL_WAITING_FOR_RAIL, refundReferenceOf } from './rail-collect';
import { REFUND_WAITING_FOR_RAIL } from './rail-refund';
import {
  PULL_REVERSAL_RECORDED,
  REFUND_CLOSED_REVERSED,
  reversalEffect,
  REFUND_SETTLED_OUTSIDE,
  refundActionsFor,
  refundMoneyOf,
  type RailRefundAction,
} from './rail-refund-ops';
import { canTakeBack, PULL_TAKEN_BACK, takeBackPlan } from './rail-pull-reversal-ops';
import { isHeldScript } from './script-hold';
import { canHandToRail } from './script-hold-ops';

// Where a payment stands with the payment rail, in words, for staff (the console's transaction
// page; issue 25: a payment waiting because no rail is connected is shown with a clear reason).
// railStatus and railNote are not part of the API's transaction object: this is their only reader
// besides the metrics. Also the references the rail knows the payment's instructions by, and what
// staff may do about a refund that did not go through (rail-refund-ops.ts) or a pull the payer's
// bank reversed (rail-pull-reversal-ops.ts).
type Row = txRepo.TransactionRow;

export interface RailView {
  /** The state in words ("Waiting: no payment rail connected — offered again every 15 minutes"). */
  state: string;
  /** The rail's or the engine's own note, when it says more than the state. */
  note: string | null;
  /** Whether staff must act (a refund that did not go through). */
  needsStaff: boolean;
  /** The instructions' references as the rail knows them, current attempt last. */
  references: { label: string; reference: string }[];
  actions: (RailRefundAction | 'TAKE_BACK' | 'HAND_TO_RAIL')[];
  /** The refund attempt the actions apply to (sent with them, so a stale page is refused). */
  attempt: number;
  /** What a refund action concerns (minor units and currency). */
  refund: { amount: bigint; currency: string } | null;
  /**
   * What the payer owes after the action on the reversal of the pull (closing it, or recording it),
   * minor units in the refund's currency; negative: set against what they owe; null: no such action.
   */
  payerOwes: bigint | null;
  /** TAKE_BACK: what the account's available balance covers now (the rest is owed by the customer). */
  fromAccount: bigint | null;
}

const EVERY = `offered again every ${UNCONNECTED_RECHECK_SECONDS / 60} minutes`;

const isRailPull = (row: Row) => row.type === 'INCOMING' && row.scenario === 'WAITING_FOR_RAIL';
const paysOutOverRail = (row: Row) =>
  row.type === 'OUTGOING' && !!row.plan && row.scenario !== 'SUCCESS' && planOf(row).route.kind === 'EXTERNAL';

/** Whether the rail has (or will have) anything to do with this payment, in production. */
function touchesRail(row: Row): boolean {
  if (row.railStatus !== null || row.collectedAt !== null) return true;
  if (row.status !== 'PROCESSING' || (row.scenario !== null && row.scenario !== 'WAITING_FOR_RAIL')) return false;
  return isRailPull(row) || (row.type === 'OUTGOING' && !!row.plan && (isPullFunded(row) || paysOutOverRail(row)));
}

/** The instruction a PROCESSING payment has with the rail now: its funding pull, or its payout (or a /transfer-in's pull). */
const instructionWord = (row: Row) =>
  isRailPull(row) || (isPullFunded(row) && row.collectedAt === null) ? 'Pull' : 'Payout';

function stateOf(row: Row): string {
  const note = row.railNote ?? '';
  const what = instructionWord(row);
  switch (row.railStatus) {
    case null:
      return row.collectedAt
        ? 'Funds collected by pull; the payout is being handed to the rail'
        : `${what} being handed to the rail`;
    case 'WAITING':
      if (isHeldScript(row))
        return row.status === 'PROCESSING'
          ? `Held: ${note}`
          : `Held (a sandbox scripted outcome is not applied in production) until it was ${row.status.toLowerCase()}`;
      return note.includes(NO_RAIL_CONNECTED) || note === PULL_WAITING_FOR_RAIL
        ? `Waiting: no payment rail connected — ${EVERY}`
        : `Waiting to hand the ${what.toLowerCase()} to the rail again`;
    case 'SUBMITTING':
      return 'Pull being handed to the rail';
    case 'ACCEPTED':
      return `${what} with the rail`;
    case 'COMPLETED':
      return 'Completed by the rail';
    case 'FAILED':
      return `${what} failed at the rail`;
    case 'RETURNED':
      return row.type === 'INCOMING'
        ? "Pull returned by the payer's bank"
        : `${what} returned by the ${row.collectedAt ? 'receiving' : "payer's"} bank`;
    case 'REFUND_PENDING':
      return "Refund to the payer's bank being handed to the rail";
    case 'REFUND_WAITING':
      return note === REFUND_WAITING_FOR_RAIL
        ? `Refund waiting: no payment rail connected — ${EVERY}`
        : 'Refund waiting to be handed to the rail again';
    case 'REFUND_ACCEPTED':
      return 'Refund with the rail';
    case 'REFUND_COMPLETED':
      return "Refunded to the payer's bank over the rail";
    case 'REFUND_FAILED':
      return `Refund failed at the rail: ${note || 'no reason given'}`;
    case 'REFUND_RETURNED':
      return row.pullReturnedAt
        ? "Refund returned by the payer's bank after it completed, and the pull reversed: the payer has the money once"
        : "Refund returned by the payer's bank after it completed";
    case 'REFUND_HELD':
      return "Refund held: the payer's bank reversed the pull, so the payer has the money back";
    case 'PULL_RETURNED':
      return "Pull reversed by the payer's bank after it completed";
    case REFUND_SETTLED_OUTSIDE:
      return 'Refunded outside Corridor (recorded by staff)';
    case REFUND_CLOSED_REVERSED:
      return 'Closed: the payer was repaid by the reversal of the pull';
    case PULL_TAKEN_BACK:
      return "Pull reversed by the payer's bank after it completed: the credit was taken back by staff";
    case PULL_REVERSAL_RECORDED:
      return "Pull reversed by the payer's bank after its money had gone on: recorded as owed by the payer";
    default:
      return row.railStatus;
  }
}

function referencesOf(row: Row): RailView['references'] {
  const refs: RailView['references'] = [];
  if (isHeldScript(row)) return refs; // never handed to the rail: it knows no reference
  if (isRailPull(row)) return [{ label: 'Pull', reference: row.id }];
  if (isPullFunded(row)) refs.push({ label: "Pull from the payer's bank", reference: pullReferenceOf(row.id) });
  if (!isPullFunded(row) || row.collectedAt) refs.push({ label: 'Payout', reference: row.id });
  const refunding = (row.railStatus ?? '').startsWith('REFUND_') || row.refundAttempt > 1;
  for (let n = 1; refunding && n <= row.refundAttempt; n++)
    refs.push({ label: n === 1 ? 'Refund' : `Refund, attempt ${n}`, reference: refundReferenceOf(row.id, n) });
  return refs;
}

/** The rail block of a payment, or null when no rail is involved (a sandbox payment, an internal transfer). */
export async function railViewOf(platformId: string, id: string): Promise<RailView | null> {
  const row = await txRepo.findById(platformId, id, db());
  if (!row || !touchesRail(row)) return null;
  if (canTakeBack(row)) {
    const plan = await takeBackPlan(row);
    return {
      ...common(row),
      needsStaff: true,
      actions: ['TAKE_BACK'],
      attempt: row.refundAttempt,
      refund: { amount: plan.amount, currency: plan.currency },
      payerOwes: plan.owed,
      fromAccount: plan.fromAccount,
    };
  }
  if (isHeldScript(row)) return heldView(row);
  const actions = refundActionsFor(row);
  const reversalAction = actions.find((a) => a === 'CLOSE_REVERSED' || a === 'RECORD_PAYER_OWES');
  return {
    ...common(row),
    needsStaff: actions.length > 0,
    actions,
    attempt: row.refundAttempt,
    refund: actions.length ? refundMoneyOf(row) : null,
    payerOwes: reversalAction ? (await reversalEffect(row, reversalAction)).owed : null,
    fromAccount: null,
  };
}

/** A payment held because production applies no sandbox script: staff decide; HAND_TO_RAIL where the rail can carry it. */
function heldView(row: Row): RailView {
  const waiting = row.status === 'PROCESSING';
  const amount = row.receivedAmount ?? row.sentAmount;
  const currency = row.receivedCurrency ?? row.sentCurrency;
  return {
    ...common(row),
    needsStaff: waiting,
    actions: canHandToRail(row) ? ['HAND_TO_RAIL'] : [],
    attempt: row.refundAttempt,
    // What the payment carries, for the action's confirmation.
    refund: waiting && amount !== null && currency ? { amount, currency } : null,
    payerOwes: null,
    fromAccount: null,
  };
}

function common(row: Row) {
  const state = stateOf(row);
  const note = row.railNote && !state.includes(row.railNote) ? row.railNote : null;
  return { state, note, references: referencesOf(row) };
}

/** The overview's counters: payments waiting on the rail, refunds over it that need staff. */
export async function railCounts(platformId: string) {
  const [waiting, staff] = await Promise.all([
    txRepo.countRail(platformId, 'WAITING', db()),
    txRepo.countRail(platformId, 'STAFF', db()),
  ]);
  return { waiting, staff };
}
