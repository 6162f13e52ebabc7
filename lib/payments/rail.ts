import type { AdapterStatus } from '../core/ports';

// The payment rail as a provider sees it (issue 25): Corridor submits an instruction — pay out to
// an account, pull from one, return money — identified by our own reference, and the rail answers
// at once only whether it took it (ACCEPTED), will never take it (REFUSED) or cannot now (RETRY:
// the worker submits again later, backing off). What became of the money arrives later as events
// (a callback, or a poll) that drive the payment's state (settlement.ts applyRailEvent). Nothing
// about the outcome is decided when the quote is created.
//
// Adapters: the sandbox rail (scenarios.ts: the documented magic suffixes and delays, its events
// delivered by the 'payment.settle' job), the bring-your-own-rail HTTP adapter (rail-http.ts,
// docs/rails.md) and, in production with nothing configured, the unconnected rail, which takes
// nothing: the payment stays PROCESSING with the reason on it.

export type RailInstructionKind = 'PAYOUT' | 'PULL' | 'RETURN';

export interface RailInstruction {
  /**
   * Our reference: the transaction id (the pull funding a quote: `<transaction id>:pull`, so that its
   * payout keeps a reference of its own; the refund of that pull: `<transaction id>:refund`).
   * Submitting the same reference twice must not pay twice.
   */
  reference: string;
  /**
   * PAYOUT: send to the account. PULL: debit it. RETURN: send money we collected back to the
   * account it was pulled from (`originalReference` names that pull), as a bank refunds an ACH debit.
   */
  kind: RailInstructionKind;
  /** RETURN only: the reference of the instruction whose money goes back. */
  originalReference?: string;
  platformId: string;
  /** Minor units, as a decimal string (lossless). */
  amount: string;
  currency: string;
  /** The rail asked for (ACH, SEPA_INSTANT, ...), when one was chosen. */
  rail: string | null;
  account: { externalAccountId: string; accountType: string; identifier: string };
  description: string | null;
}

export type RailSubmission =
  | { outcome: 'ACCEPTED'; providerReference?: string }
  /** The rail will never carry it (closed account, unsupported currency...): the payment fails, refunded. */
  | { outcome: 'REFUSED'; reason: string }
  /** Not now (the rail is down, rate-limited, timed out): submit again after a backoff. */
  | { outcome: 'RETRY'; reason: string; afterSeconds?: number }
  /** No rail is connected: nothing can be submitted; the payment waits, visibly. */
  | { outcome: 'UNCONNECTED'; reason: string };

/** What the rail reports about an instruction it accepted. */
export type RailEventStatus = 'COMPLETED' | 'FAILED' | 'RETURNED';

export interface RailEvent {
  /** The instruction's reference (our transaction id, or `<id>:pull` for a quote's funding pull). */
  reference: string;
  status: RailEventStatus;
  /** For FAILED: one of the reference's outgoing failure reasons; ACCOUNT_CANNOT_RECEIVE when absent or unknown. */
  failureReason?: string;
  /** The rail's own id of this event (dedupe on its side; duplicates are harmless on ours). */
  eventId?: string;
}

/** What a rail adapter does besides saying what it is. */
export interface RailAdapter {
  describe(): AdapterStatus;
  submit(instruction: RailInstruction): Promise<RailSubmission>;
  /** Whether a status callback's body carries the rail's signature (absent: the rail takes no callbacks). */
  verifyCallback?(body: string, signature: string | null): boolean;
}

/** The failure reasons a FAILED event may carry (the reference's outgoing ones a bank can cause). */
export const RAIL_FAILURE_REASONS = [
  'ACCOUNT_CANNOT_RECEIVE',
  'ACCOUNT_INVALID',
  'QUOTE_EXECUTION_FAILED',
  'COMPLIANCE_REJECTED',
] as const;

/** The job that hands a payment to the rail (rail-engine.ts submitToRail). */
export const SUBMIT_JOB = 'payment.submit';

/** The job that hands a refund back to the payer's bank to the rail (rail-refund.ts submitRefund). */
export const REFUND_JOB = 'payment.refund';

/** railStatus of a refund decided but not yet handed to the rail (rail-refund.ts). */
export const REFUND_PENDING = 'REFUND_PENDING';
/** railStatus values of a refund still on its way: the rail's COMPLETED or FAILED applies to these. */
export const REFUND_IN_FLIGHT = [REFUND_PENDING, 'REFUND_WAITING', 'REFUND_ACCEPTED'];
/**
 * railStatus values of a refund over the rail that did not go through and waits for staff
 * (rail-refund-ops.ts): it FAILED or came back (RETURNED) and may be sent again; or it is held
 * because the payer's bank reversed the pull (REFUND_HELD, or PULL_RETURNED when the refund had
 * failed). The console's counter and filter select the same states.
 */
export const REFUND_RESENDABLE = ['REFUND_FAILED', 'REFUND_RETURNED'];
export const REFUND_HELD = 'REFUND_HELD';
/** railStatus of a settled pull-funded quote whose pull the payer's bank returned after it completed. */
export const PULL_RETURNED = 'PULL_RETURNED';
export const REFUND_HELD_BY_REVERSAL = [REFUND_HELD, PULL_RETURNED];
export const REFUND_PENDING_NOTE = "refund to the payer's bank is being handed to the rail";

export const NO_RAIL_CONNECTED = 'no payment rail connected';

/** Production with no rail configured: takes nothing, says so. */
export const unconnectedPaymentRail: RailAdapter = {
  describe: () => ({
    party: 'payment rail',
    adapter: 'none',
    connected: false,
    detail: `payouts and pulls wait in PROCESSING (${NO_RAIL_CONNECTED}); set CORRIDOR_RAIL_URL (docs/rails.md)`,
  }),
  submit: async () => ({ outcome: 'UNCONNECTED', reason: NO_RAIL_CONNECTED }),
};

/** Backoff before submitting again after the `attempt`-th RETRY (seconds): 30 s doubling, at most an hour. */
export function retryDelaySeconds(attempt: number, asked?: number): number {
  const backoff = Math.min(3600, 30 * 2 ** Math.max(0, attempt - 1));
  return Math.max(backoff, Math.min(asked ?? 0, 24 * 3600));
}

/** How often a payment waiting for a rail to be connected is tried again (a restart with CORRIDOR_RAIL_URL set picks it up). */
export const UNCONNECTED_RECHECK_SECONDS = 15 * 60;
