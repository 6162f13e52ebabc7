import { addSeconds } from '../core/clock';
import type { Step } from '../ledger/service';
import { activeGuard, type InternalAccountRow } from '../accounts/repository';
import { eventWrites, type EventType } from '../events/outbox';
import { jobWrite } from '../jobs/queue';
import * as quotesRepo from './quotes/repository';
import * as txRepo from './transactions/repository';
import { toTransaction } from './transactions/presenter';
import { balanceAnnouncements } from './balances';
import { planOf } from './plan';
import { holdPosting, refundPosting, releasePosting, reversePosting, settlePosting } from './postings';
import { payoutDelay, SETTLE_AFTER_SECONDS, type PayoutScenario } from './scenarios';
import { REFUND_IN_FLIGHT, REFUND_JOB, REFUND_PENDING, REFUND_PENDING_NOTE, SUBMIT_JOB } from './rail';

// The steps of an outgoing payment's life, as data (ledger.Step): the guarded move of the
// transaction (and of its quote), the rows the step writes (events, the next job), its posting,
// and the balance events of the internal accounts it touches. Built from rows read beforehand,
// without locks: the guarded moves decide, when the step is written, whether it still applies.
// Callers write a step as one statement (ledger.runStep) or inside a larger transaction.
type Row = txRepo.TransactionRow;

const prefix = (row: Row) => (row.type === 'INCOMING' ? 'INCOMING_PAYMENT' : 'OUTGOING_PAYMENT');
const events = (row: Row, suffixes: string[], at: Date) =>
  eventWrites(
    row.platformId,
    suffixes.map((s) => ({ type: `${prefix(row)}.${s}` as EventType, data: toTransaction(row) })),
    at,
  );

/** The internal accounts whose balances a step of this payment changes. */
export function touchedInternal(row: Row): string[] {
  const plan = planOf(row);
  const ids: string[] = [];
  if (plan.funding.kind === 'INTERNAL') ids.push(plan.funding.internalAccountId);
  if (plan.route.kind === 'INTERNAL') ids.push(plan.route.internalAccountId);
  return ids;
}

/** What a step needs besides the transaction: the rows of the internal accounts it touches. */
export interface Accounts {
  /** Rows of (at least) touchedInternal(row); others are ignored. */
  accounts: InternalAccountRow[];
  /** The platform's own internal account where platform-collected fees settle, if any. */
  feeAccount: InternalAccountRow | null;
}

function announce(row: Row, ctx: Accounts, extra: InternalAccountRow[] = []) {
  const ids = new Set(touchedInternal(row));
  return balanceAnnouncements(row.platformId, [...ctx.accounts.filter((a) => ids.has(a.id)), ...extra]);
}

/**
 * The quote is executed: its total moves into flight and the payout is scheduled. `guardSource`
 * makes the source account's being ACTIVE one of the step's required conditions (for a step
 * written on its own, ledger.runStep without a transaction, from rows read earlier).
 */
export function start(
  quoteId: string,
  row: Row,
  source: InternalAccountRow | null,
  at: Date,
  opts: { guardSource?: boolean } = {},
): { step: Step; started: Row } {
  // A scripted (sandbox) outcome arrives after its documented delay; a real rail is handed the
  // instruction now and its events decide, so no settlement time is promised.
  const scripted = row.scenario !== null;
  const settleAt = scripted ? addSeconds(at, payoutDelay(row.scenario as PayoutScenario)) : null;
  const started: Row = { ...row, status: 'PROCESSING', updatedAt: at, expectedSettlementAt: settleAt };
  return {
    started,
    step: {
      // The quote first: every writer that changes both locks the quote before the transaction.
      moves: [
        quotesRepo.moveGuard(quoteId, 'execute', { executedAt: at, updatedAt: at }),
        txRepo.moveGuard(row.id, 'start', { updatedAt: at, expectedSettlementAt: settleAt }),
        ...(opts.guardSource && source ? [activeGuard(source.id)] : []),
      ],
      writes: [
        jobWrite(
          settleAt
            ? {
                platformId: row.platformId,
                kind: 'payment.settle',
                payload: { transactionId: row.id },
                runAt: settleAt,
              }
            : { platformId: row.platformId, kind: SUBMIT_JOB, payload: { transactionId: row.id }, runAt: at },
        ),
        ...events(started, ['PROCESSING'], at),
      ],
      posting: holdPosting(started),
      announce: source ? balanceAnnouncements(row.platformId, [source]) : [],
    },
  };
}

/**
 * The quote's direct pull was refused at once (sandbox source suffix 002/003): the quote and its
 * transaction fail on execution and nothing moves.
 */
export function refuseCollection(quoteId: string, row: Row, at: Date): { step: Step; failed: Row } {
  const failed: Row = { ...row, status: 'FAILED', failureReason: COLLECTION_FAILURE, updatedAt: at };
  return {
    failed,
    step: {
      moves: [
        quotesRepo.moveGuard(quoteId, 'fundingFailed', { updatedAt: at }),
        txRepo.moveGuard(row.id, 'fail', { failureReason: COLLECTION_FAILURE, updatedAt: at }),
      ],
      writes: events(failed, ['FAILED'], at),
      posting: null,
      announce: [],
    },
  };
}

/**
 * The failure reason of a payment whose funding pull failed. The reference's outgoing reasons
 * have no collection failure (COLLECTION_FAILED is incoming-only); the quote could not be executed.
 */
export const COLLECTION_FAILURE = 'QUOTE_EXECUTION_FAILED';

const mirrorQuote = (row: Row, to: 'complete' | 'fail', at: Date) =>
  row.quoteId ? [quotesRepo.moveGuard(row.quoteId, to, { updatedAt: at }, false)] : [];

/**
 * The payout settled at the other end: fees recognised, principal across the FX desk, the
 * receiving amount to the destination. `returnsLater` schedules the sandbox return (suffix 005).
 */
export function complete(
  row: Row,
  ctx: Accounts,
  at: Date,
  opts: { returnsLater?: boolean } = {},
): { step: Step; done: Row } {
  const done: Row = { ...row, status: 'COMPLETED', settledAt: at, updatedAt: at };
  const later = opts.returnsLater
    ? [
        jobWrite({
          platformId: row.platformId,
          kind: 'payment.return',
          payload: { transactionId: row.id },
          runAt: addSeconds(at, SETTLE_AFTER_SECONDS.returnAfter),
        }),
      ]
    : [];
  return {
    done,
    step: {
      moves: [
        txRepo.moveGuard(row.id, 'complete', { settledAt: at, updatedAt: at }),
        ...mirrorQuote(row, 'complete', at),
      ],
      writes: [...events(done, ['COMPLETED'], at), ...later],
      posting: settlePosting(done, ctx.feeAccount?.id ?? null),
      announce: announce(done, ctx, ctx.feeAccount ? [ctx.feeAccount] : []),
    },
  };
}

export interface Failure {
  failureReason?: string;
  /**
   * What becomes of the money in flight. `completed` false: the refund failed too (sandbox 007);
   * the money stays held for operations to resolve. Null: nothing was collected (the funding pull
   * itself failed), so there is no refund; the hold on money that never arrived is released.
   */
  refund: {
    reason: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';
    completed: boolean;
    /**
     * The money was pulled from the payer's bank over a real rail (rail-collect.ts): the refund is
     * an instruction of its own (rail-refund.ts), PENDING until the rail reports it, and the money
     * stays in flight until then. `completed` is ignored.
     */
    overRail?: boolean;
  } | null;
}

/** The same failure, its refund sent back over the rail (PENDING until the rail reports it). */
export const overRail = (f: Failure): Failure => (f.refund ? { ...f, refund: { ...f.refund, overRail: true } } : f);

/** What a refund over the rail writes besides its PENDING refund object: its job, and where it stands. */
const refundHandOver = (row: Row, at: Date) => ({
  set: { railStatus: REFUND_PENDING, railNote: REFUND_PENDING_NOTE },
  job: jobWrite({ platformId: row.platformId, kind: REFUND_JOB, payload: { transactionId: row.id }, runAt: at }),
});

/** A refunded failure of the given reason. */
export const refundedFailure = (
  failureReason: string,
  reason: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' = 'TRANSACTION_FAILED',
): Failure => ({ failureReason, refund: { reason, completed: true } });

/** A payment cancelled before it paid out. FAILED always carries a failureReason (reference); none names cancellation, the refund does. */
export const CANCELLED = refundedFailure('QUOTE_EXECUTION_FAILED', 'USER_CANCELLATION');

/** The refund object of a payment whose money went (or could not go) back. */
export const refundOf = (row: Row, at: Date, status: 'PENDING' | 'COMPLETED' | 'FAILED', reason: string) => ({
  reference: `RF${row.id.slice(12, 22).toUpperCase().replace(/-/g, '')}`,
  initiatedAt: at.toISOString(),
  status,
  reason,
  ...(status === 'COMPLETED' ? { settledAt: at.toISOString() } : {}),
});

/** The payment failed before paying out: the money in flight goes back where it came from. */
export function fail(row: Row, ctx: Accounts, p: Failure, at: Date): { step: Step; failed: Row } {
  const status = !p.refund ? null : p.refund.overRail ? 'PENDING' : p.refund.completed ? 'COMPLETED' : 'FAILED';
  const refund = p.refund && status ? refundOf(row, at, status, p.refund.reason) : null;
  const rail = status === 'PENDING' ? refundHandOver(row, at) : null;
  const data = { failureReason: p.failureReason ?? null, refund, updatedAt: at, ...rail?.set };
  const failed: Row = { ...row, ...data, status: 'FAILED' };
  return {
    failed,
    step: {
      moves: [txRepo.moveGuard(row.id, 'fail', data), ...mirrorQuote(row, 'fail', at)],
      writes: [
        ...events(failed, status ? ['FAILED', `REFUND_${status}`] : ['FAILED'], at),
        ...(rail ? [rail.job] : []),
      ],
      // A refund the rail has yet to carry keeps the money in flight (refundSettled posts it).
      posting: status === null || status === 'COMPLETED' ? releasePosting(failed) : null,
      announce: announce(failed, ctx),
    },
  };
}

/** The receiving bank sent a completed payout back: principal back to the source, fees kept. */
export function returned(
  row: Row,
  ctx: Accounts,
  at: Date,
  opts: { overRail?: boolean } = {},
): { step: Step; returned: Row } {
  // Over the rail (a pull-funded quote): the principal comes back into flight and the refund to
  // the payer's bank is an instruction of its own, PENDING until the rail reports it.
  const status = opts.overRail ? 'PENDING' : 'COMPLETED';
  const refund = refundOf(row, at, status, 'TRANSACTION_FAILED');
  const rail = opts.overRail ? refundHandOver(row, at) : null;
  const data = { failureReason: 'PAYOUT_RETURNED', refund, updatedAt: at, ...rail?.set };
  const back: Row = { ...row, ...data, status: 'FAILED' };
  return {
    returned: back,
    step: {
      moves: [txRepo.moveGuard(row.id, 'returned', data), ...mirrorQuote(row, 'fail', at)],
      writes: [...events(back, ['FAILED', `REFUND_${status}`], at), ...(rail ? [rail.job] : [])],
      posting: reversePosting(back, { toInFlight: opts.overRail }),
      announce: announce(back, ctx),
    },
  };
}

/**
 * Moves a refund still in flight over the rail (guarded on its railStatus, so it applies once, and
 * on its attempt, so that an event about an attempt staff replaced never moves the new one).
 */
const refundGuard = (row: Row, set: Record<string, unknown>) => ({
  table: 'Transaction' as const,
  where: { id: row.id, status: 'FAILED', railStatus: REFUND_IN_FLIGHT, refundAttempt: row.refundAttempt },
  set,
  required: true,
});

/** The rail carried the refund back to the payer's bank: the refund COMPLETED, its money posted. */
export function refundSettled(row: Row, at: Date): { step: Step; done: Row } {
  const refund = { ...(row.refund as object), status: 'COMPLETED', settledAt: at.toISOString() };
  const data = { refund, railStatus: 'REFUND_COMPLETED', railNote: null, updatedAt: at };
  const done: Row = { ...row, ...data };
  return {
    done,
    step: {
      moves: [refundGuard(row, data)],
      writes: events(done, ['REFUND_COMPLETED'], at),
      posting: refundPosting(done),
      announce: [],
    },
  };
}

/**
 * The rail could not carry the refund (refused, failed, or returned before it completed): the
 * refund FAILED and the money stays in flight, visible, for operations to resolve (as sandbox 007).
 */
export function refundFailed(row: Row, at: Date, why: string): { step: Step; failed: Row } {
  const refund = { ...(row.refund as object), status: 'FAILED' };
  const data = { refund, railStatus: 'REFUND_FAILED', railNote: why, updatedAt: at };
  const failed: Row = { ...row, ...data };
  return {
    failed,
    step: {
      moves: [refundGuard(row, data)],
      writes: events(failed, ['REFUND_FAILED'], at),
      posting: null,
      announce: [],
    },
  };
}
