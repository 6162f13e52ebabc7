import { z } from 'zod';
import { defineCommand } from '../core/command';
import type { Actor } from '../core/context';
import * as ops from '../payments/rail-refund-ops';
import { takeBackReversedPull } from '../payments/rail-pull-reversal-ops';
import { handHeldToRail } from '../payments/script-hold-ops';
import { act } from './operations';
import type { StaffActor } from './roles';

// Staff actions on a refund over the rail that did not go through (lib/payments/rail-refund-ops.ts),
// from the console's transaction page: operators and admins, each recorded in the audit trail on
// the transaction with the amount, and each taking the click's idempotency key (a repeated request
// answers as the first did; its answer is recorded in the transaction that moves the money). The
// attempt the page showed is part of the input: an action on a refund that moved on meanwhile is
// refused, never applied to the new state.
const input = z.object({ transactionId: z.string().min(1).max(100), attempt: z.number().int().min(1).max(100_000) });
const staffOf = (actor: Actor) => actor as StaffActor;

type Done = ops.RefundActionResult;
const doneDetails = (r: Done) => ({
  details: {
    railStatus: r.railStatus,
    refundStatus: r.refundStatus,
    attempt: r.attempt,
    reference: r.reference,
    amount: r.amount,
    currency: r.currency,
    payerOwes: r.payerOwes,
  },
});

export function resendRefund(actor: StaffActor, transactionId: string, attempt: number) {
  return act(
    actor,
    'operator',
    { action: 'refund.resend', objectId: transactionId, details: { attempt } },
    () => ops.resendRefund(actor.platformId, transactionId, attempt),
    doneDetails,
  );
}

export function recordRefundedOutside(actor: StaffActor, transactionId: string, attempt: number, reason: string) {
  return act(
    actor,
    'operator',
    { action: 'refund.record_outside', objectId: transactionId, details: { attempt, reason: reason.trim() } },
    () => ops.recordRefundedOutside(actor.platformId, transactionId, attempt, reason),
    (r) => ({ details: { ...doneDetails(r).details, reason: reason.trim() } }),
  );
}

export function closeRepaidByReversal(actor: StaffActor, transactionId: string, attempt: number) {
  return act(
    actor,
    'operator',
    { action: 'refund.close_reversed', objectId: transactionId, details: { attempt } },
    () => ops.closeRepaidByReversal(actor.platformId, transactionId, attempt),
    doneDetails,
  );
}

export function recordPayerOwes(actor: StaffActor, transactionId: string, attempt: number) {
  return act(
    actor,
    'operator',
    { action: 'refund.record_payer_owes', objectId: transactionId, details: { attempt } },
    () => ops.recordPayerOwes(actor.platformId, transactionId, attempt),
    doneDetails,
  );
}

/** Takes back the credit of a /transfer-in pull the payer's bank reversed after it completed. */
export function takeBackPull(actor: StaffActor, transactionId: string, reason: string) {
  return act(
    actor,
    'operator',
    { action: 'pull.take_back', objectId: transactionId, details: { reason: reason.trim() } },
    () => takeBackReversedPull(actor.platformId, transactionId, reason),
    (r) => ({
      details: {
        amount: r.amount,
        fromAccount: r.fromAccount,
        customerOwes: r.customerOwes,
        currency: r.currency,
        reason: reason.trim(),
      },
    }),
  );
}

/** Hands a payment held with a sandbox script production does not apply to the rail (script-hold-ops.ts). */
export function handToRail(actor: StaffActor, transactionId: string) {
  return act(
    actor,
    'operator',
    { action: 'payment.hand_to_rail', objectId: transactionId },
    () => handHeldToRail(actor.platformId, transactionId),
    (r) => ({ details: { scenario: r.scenario, amount: r.amount, currency: r.currency } }),
  );
}

export const resendRefundCommand = defineCommand({
  name: 'console.refund.resend',
  input,
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => resendRefund(staffOf(actor), b.transactionId, b.attempt),
});

export const recordRefundedOutsideCommand = defineCommand({
  name: 'console.refund.record-outside',
  input: input.extend({ reason: z.string().trim().min(1).max(1000) }),
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => recordRefundedOutside(staffOf(actor), b.transactionId, b.attempt, b.reason),
});

export const closeRepaidByReversalCommand = defineCommand({
  name: 'console.refund.close-reversed',
  input,
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => closeRepaidByReversal(staffOf(actor), b.transactionId, b.attempt),
});

export const recordPayerOwesCommand = defineCommand({
  name: 'console.refund.record-payer-owes',
  input,
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => recordPayerOwes(staffOf(actor), b.transactionId, b.attempt),
});

export const takeBackPullCommand = defineCommand({
  name: 'console.pull.take-back',
  input: z.object({ transactionId: z.string().min(1).max(100), reason: z.string().trim().min(1).max(1000) }),
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => takeBackPull(staffOf(actor), b.transactionId, b.reason),
});

export const handToRailCommand = defineCommand({
  name: 'console.payment.hand-to-rail',
  input: z.object({ transactionId: z.string().min(1).max(100) }),
  actors: { staff: 'operator' },
  idempotency: 'optional',
  run: (actor, b) => handToRail(staffOf(actor), b.transactionId),
});
