import { port } from '../core/ports';
import type { RailAdapter } from './rail';

// Sandbox outcomes (interface spec, "External account identifier suffix" and "UMA destinations in
// sandbox"). The outcome is fixed when a payment is created, from the last three digits of the
// destination's primary identifier (for identifiers with a domain part, of the user part).
// Outside sandbox nothing is scripted: the connected rail's events decide (rail.ts), and with no
// rail connected the payment waits.
export type PayoutScenario =
  | 'SUCCESS'
  | 'EXECUTION_FAILED' // 002: quote execution failed, debited funds refunded
  | 'SLOW' // 003: completes after about six minutes
  | 'DELIVERY_FAILED' // 004: counterparty delivery failed, refunded
  | 'RETURNED' // 005: completes, then the receiving bank returns it
  | 'USER_CANCELLED' // 006: user cancellation, refunded
  | 'PAYOUT_AND_REFUND_FAILED' // 007: payout failed and the refund failed too
  | 'LONG_PENDING' // $pending.long.*
  | 'COMPLIANCE_FAILED' // $fail.compliance.*
  // A quote funded by direct pull (ACH debit) from an external account: the source account's
  // suffix decides the collection, as for /transfer-in, before the destination's can matter.
  | 'COLLECTION_REFUSED' // source 002/003: the pull fails at once, on execution; nothing moves
  | 'COLLECTION_FAILED' // source 004: the bank rejects the pull when it settles
  | 'COLLECTION_FAILED_LATE'; // source 005: the pull stays pending about 30 s, then fails

export type TransferScenario =
  | 'SUCCESS'
  | 'INSUFFICIENT_FUNDS' // 002: fails immediately
  | 'ACCOUNT_INVALID' // 003: account closed/invalid, fails immediately
  | 'BANK_REJECTED' // 004: rejected by the bank
  | 'PENDING_THEN_FAILS' // 005: pending about 30 seconds, then fails
  | 'WAITING_FOR_RAIL'; // production: handed to the payment rail (rail-engine.ts); its events decide

/** The three digits that decide a sandbox outcome. */
export function identifierSuffix(identifier: string): string {
  const at = identifier.indexOf('@');
  const user = at >= 0 ? identifier.slice(0, at) : identifier;
  return user.slice(-3);
}

/**
 * The payment rail port (plugged in by lib/wiring.ts): submit instructions, outcomes arriving
 * later as events (rail.ts). `script` is the sandbox's documented magic: the outcome its suffixes
 * choose, stored with the payment so its events come out as the interface spec says; a real rail
 * has no script (null) and nothing is decided before it reports. `transfer` is the account rail
 * of /transfer-in and /transfer-out, still decided at creation (sandbox suffixes).
 */
export interface PaymentRail extends RailAdapter {
  script(identifier: string): PayoutScenario | null;
  transfer(identifier: string): TransferScenario;
}
export const paymentRail = port<PaymentRail>('payments.rail');

function sandboxPayout(identifier: string): PayoutScenario {
  switch (identifierSuffix(identifier)) {
    case '002':
      return 'EXECUTION_FAILED';
    case '003':
      return 'SLOW';
    case '004':
      return 'DELIVERY_FAILED';
    case '005':
      return 'RETURNED';
    case '006':
      return 'USER_CANCELLED';
    case '007':
      return 'PAYOUT_AND_REFUND_FAILED';
    default:
      return 'SUCCESS';
  }
}

function sandboxTransfer(identifier: string): TransferScenario {
  switch (identifierSuffix(identifier)) {
    case '002':
      return 'INSUFFICIENT_FUNDS';
    case '003':
      return 'ACCOUNT_INVALID';
    case '004':
      return 'BANK_REJECTED';
    case '005':
      return 'PENDING_THEN_FAILS';
    default:
      return 'SUCCESS';
  }
}

/**
 * The sandbox rail: accepts every instruction at once; its events are the scripted outcome,
 * delivered after the documented delay by the 'payment.settle' job (settlement.ts), so every
 * sandbox scenario, timing and webhook is what the interface spec documents.
 */
export const sandboxPaymentRail: PaymentRail = {
  describe: () => ({
    party: 'payment rail',
    adapter: 'sandbox',
    connected: false,
    detail: 'simulated: outcomes from the documented magic suffixes and delays',
  }),
  script: sandboxPayout,
  transfer: sandboxTransfer,
  submit: async () => ({ outcome: 'ACCEPTED' }),
};

/**
 * A production rail built on an adapter (rail-http.ts, or none): no scripted outcomes; what
 * happens to a payout or pull is what the adapter reports. Transfers to and from external
 * accounts (/transfer-out, /transfer-in) are marked WAITING_FOR_RAIL and submitted to it as a
 * PAYOUT or a PULL (rail-engine.ts), like quote payouts.
 */
export function productionPaymentRail(adapter: RailAdapter): PaymentRail {
  return {
    describe: () => adapter.describe(),
    submit: (i) => adapter.submit(i),
    ...(adapter.verifyCallback ? { verifyCallback: adapter.verifyCallback } : {}),
    script: () => null,
    transfer: () => 'WAITING_FOR_RAIL',
  };
}

export const payoutScenario = (identifier: string) => paymentRail.get().script(identifier);
export const transferScenario = (identifier: string) => paymentRail.get().transfer(identifier);

/** The outcome of a direct pull from an account with this identifier, when it is not success. */
export function pullScenario(identifier: string): PayoutScenario | null {
  switch (transferScenario(identifier)) {
    case 'INSUFFICIENT_FUNDS':
    case 'ACCOUNT_INVALID':
      return 'COLLECTION_REFUSED';
    case 'BANK_REJECTED':
      return 'COLLECTION_FAILED';
    case 'PENDING_THEN_FAILS':
      return 'COLLECTION_FAILED_LATE';
    default:
      return null;
  }
}

/** Seconds after the money starts moving at which the rail reports back (sandbox timings). */
export const SETTLE_AFTER_SECONDS = {
  default: 5,
  slow: 6 * 60, // "about 6 minutes"
  transferPending: 30, // "about 30 seconds"
  returnAfter: 60, // a completed payout comes back a minute later
  longPending: 7 * 24 * 3600,
} as const;

export function payoutDelay(s: PayoutScenario | null): number {
  switch (s) {
    case 'SLOW':
      return SETTLE_AFTER_SECONDS.slow;
    case 'LONG_PENDING':
      return SETTLE_AFTER_SECONDS.longPending;
    case 'COLLECTION_FAILED_LATE':
      return SETTLE_AFTER_SECONDS.transferPending;
    default:
      return SETTLE_AFTER_SECONDS.default;
  }
}
