import { expect, it } from 'vitest';
import { runCommandKeyed } from '@/lib/core/command';
import { db } from '@/lib/core/db';
import { stringifyJson } from '@/lib/core/json';
import { REFUND_JOB, unconnectedPaymentRail } from '@/lib/payments/rail';
import { pullReferenceOf, refundReferenceOf } from '@/lib/payments/rail-collect';
import { REFUND_WAITING_FOR_RAIL } from '@/lib/payments/rail-refund';
import { refundActionsFor } from '@/lib/payments/rail-refund-ops';
import { railCounts, railViewOf } from '@/lib/payments/rail-view';
import * as transactions from '@/lib/payments/transactions/service';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { historyOf } from '@/lib/staff/audit';
import * as refunds from '@/lib/staff/refund-operations';
import { txn } from '@/tests/support/money';
import { ledgerOf, railHarness, staffMember } from '@/tests/support/rail-harness';

// Staff actions on a refund over the rail that did not go through (lib/payments/rail-refund-ops.ts),
// in production over the bring-your-own rail on loopback: send it again under a new reference,
// record it as refunded outside Corridor, or close a held one the pull's reversal repaid. Each
// applies exactly once under concurrent or repeated requests, posts what balances, and is audited.
const rig = railHarness();
const { railState, eventTypes, work, pullQuote } = rig;
const member = (role: 'viewer' | 'operator') => staffMember(rig.p.platformId, role);

const row = (id: string) => db().transaction.findUniqueOrThrow({ where: { id } });
const refundOf = async (id: string) => (await txn(rig.p, id)).refund as Record<string, unknown> | undefined;
const refundEvents = async (id: string) => (await eventTypes(id)).filter((t) => t.includes('REFUND'));
const returnOf = (ref: string) => rig.receiver.instructions.get(ref)?.instruction;
const settled = <T>(all: PromiseSettledResult<T>[]) => ({
  ok: all.filter((r) => r.status === 'fulfilled').length,
  refused: all.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : null)).filter(Boolean),
});

/** A pull-funded quote whose payout FAILED and whose refund the rail then FAILED too. */
async function failedRefund() {
  const q = await pullQuote(5_000);
  await rig.receiver.report(pullReferenceOf(q.id), 'COMPLETED');
  await work();
  expect((await rig.receiver.report(q.id, 'FAILED')).body).toMatchObject({ result: 'APPLIED' });
  await work();
  const failed = await rig.receiver.report(refundReferenceOf(q.id), 'FAILED', { failureReason: 'ACCOUNT_INVALID' });
  expect(failed.body).toMatchObject({ result: 'APPLIED' });
  expect(await railState(q.id)).toMatchObject({ railStatus: 'REFUND_FAILED' });
  return q.id;
}

/** ... whose refund COMPLETED and was then RETURNED by the payer's bank. */
async function returnedRefund() {
  const q = await pullQuote(5_000);
  await rig.receiver.report(pullReferenceOf(q.id), 'COMPLETED');
  await work();
  await rig.receiver.report(q.id, 'FAILED');
  await work();
  await rig.receiver.report(refundReferenceOf(q.id), 'COMPLETED');
  expect((await rig.receiver.report(refundReferenceOf(q.id), 'RETURNED')).body).toMatchObject({ result: 'APPLIED' });
  expect(await railState(q.id)).toMatchObject({ railStatus: 'REFUND_RETURNED' });
  return q.id;
}

it('send again: a new RETURN under <id>:refund:2, exactly once; the old reference no longer moves the refund', async () => {
  const id = await failedRefund();
  const viewer = await member('viewer');
  const op = await member('operator');
  await expect(rig.within(() => refunds.resendRefund(viewer, id, 1))).rejects.toMatchObject({ code: 'FORBIDDEN' });
  // Two staff (or a double click) at once: one applies, the other is refused.
  const both = settled(await Promise.allSettled([1, 2].map(() => rig.within(() => refunds.resendRefund(op, id, 1)))));
  expect(both).toEqual({ ok: 1, refused: ['INVALID_STATE_TRANSITION'] });
  expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_PENDING' });
  expect((await row(id)).refundAttempt).toBe(2);
  expect((await refundOf(id))?.status).toBe('PENDING');
  await work();
  expect(returnOf(refundReferenceOf(id, 2))).toMatchObject({
    type: 'RETURN',
    reference: `${id}:refund:2`,
    originalReference: pullReferenceOf(id),
    amount: '5000',
  });
  expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_ACCEPTED' });
  // Late callbacks about the first attempt complete or fail nothing.
  for (const status of ['COMPLETED', 'FAILED', 'RETURNED'])
    expect((await rig.receiver.report(refundReferenceOf(id), status)).body).toMatchObject({ result: 'IGNORED' });
  expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_ACCEPTED' });
  const done = await Promise.all([1, 2].map(() => rig.receiver.report(refundReferenceOf(id, 2), 'COMPLETED')));
  expect(done.map((r) => r.body?.result).sort()).toEqual(['APPLIED', 'IGNORED']);
  expect(await refundOf(id)).toMatchObject({ status: 'COMPLETED' });
  expect(await ledgerOf(id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND'], nonZero: 0 });
  expect(await refundEvents(id)).toEqual([
    'OUTGOING_PAYMENT.REFUND_PENDING',
    'OUTGOING_PAYMENT.REFUND_FAILED',
    'OUTGOING_PAYMENT.REFUND_PENDING',
    'OUTGOING_PAYMENT.REFUND_COMPLETED',
  ]);
  const audit = await historyOf(rig.p.platformId, [id]);
  expect(audit.map((a) => a.action)).toEqual(['refund.resend']);
  expect(audit[0].details).toMatchObject({ attempt: 2, reference: `${id}:refund:2`, amount: '5000', currency: 'USD' });
  await expect(rig.within(() => refunds.resendRefund(op, id, 2))).rejects.toMatchObject({
    code: 'INVALID_STATE_TRANSITION',
  });
});

it('send again after the payer bank RETURNED it: the money re-enters clearing, and with no rail the new attempt waits visibly', async () => {
  const id = await returnedRefund();
  const op = await member('operator');
  paymentRail.set(productionPaymentRail(unconnectedPaymentRail));
  try {
    await rig.within(() => refunds.resendRefund(op, id, 1));
    expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_REFUND', 'PAYMENT_REFUND_RETURN']);
    await work();
    expect(await railState(id)).toEqual({
      status: 'FAILED',
      railStatus: 'REFUND_WAITING',
      railNote: REFUND_WAITING_FOR_RAIL,
    });
  } finally {
    rig.plugHttpRail();
  }
  await db().job.updateMany({
    where: { platformId: rig.p.platformId, kind: REFUND_JOB, state: 'PENDING' },
    data: { runAt: new Date(0) },
  });
  await work();
  expect(returnOf(refundReferenceOf(id, 2))).toMatchObject({ type: 'RETURN', amount: '5000' });
  expect((await rig.receiver.report(refundReferenceOf(id, 2), 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  expect(await ledgerOf(id)).toEqual({
    kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND', 'PAYMENT_REFUND_RETURN', 'PAYMENT_REFUND'],
    nonZero: 0,
  });
  expect((await refundOf(id))?.status).toBe('COMPLETED');
});

it('record as refunded outside Corridor: a reason is required; posted and announced once; late callbacks change nothing', async () => {
  const id = await failedRefund();
  const op = await member('operator');
  await expect(rig.within(() => refunds.recordRefundedOutside(op, id, 1, '  '))).rejects.toMatchObject({
    code: 'INVALID_INPUT',
  });
  const both = settled(
    await Promise.allSettled(
      [1, 2].map(() => rig.within(() => refunds.recordRefundedOutside(op, id, 1, 'paid by wire 4411'))),
    ),
  );
  expect(both).toEqual({ ok: 1, refused: ['INVALID_STATE_TRANSITION'] });
  expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_SETTLED_OUTSIDE' });
  expect((await railState(id)).railNote).toContain('paid by wire 4411');
  expect(await refundOf(id)).toMatchObject({ status: 'COMPLETED' });
  expect(await ledgerOf(id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND'], nonZero: 0 });
  expect((await refundEvents(id)).filter((t) => t.endsWith('REFUND_COMPLETED'))).toHaveLength(1);
  expect((await rig.receiver.report(refundReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
  expect(refundActionsFor(await row(id))).toEqual([]);
  await expect(rig.within(() => refunds.resendRefund(op, id, 1))).rejects.toMatchObject({
    code: 'INVALID_STATE_TRANSITION',
  });
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_REFUND']);
  const [entry] = await historyOf(rig.p.platformId, [id]);
  expect(entry).toMatchObject({ action: 'refund.record_outside', details: { reason: 'paid by wire 4411' } });
});

it('record outside a refund the payer bank RETURNED: it had been posted and announced, so neither happens again', async () => {
  const id = await returnedRefund();
  const op = await member('operator');
  const before = await refundEvents(id);
  await rig.within(() => refunds.recordRefundedOutside(op, id, 1, 'cheque sent'));
  expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_SETTLED_OUTSIDE' });
  expect(await ledgerOf(id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND'], nonZero: 0 });
  expect(await refundEvents(id)).toEqual(before);
});

it('close a held refund the reversal repaid: clearing released once, REFUND_COMPLETED once, never sent', async () => {
  const q = await pullQuote(5_000);
  await rig.receiver.report(pullReferenceOf(q.id), 'COMPLETED');
  await work();
  await rig.receiver.report(q.id, 'FAILED');
  await rig.receiver.report(pullReferenceOf(q.id), 'RETURNED');
  await work();
  expect(await railState(q.id)).toMatchObject({ railStatus: 'REFUND_HELD' });
  const held = await row(q.id);
  expect(refundActionsFor(held)).toEqual(['RECORD_OUTSIDE', 'CLOSE_REVERSED']);
  const op = await member('operator');
  await expect(rig.within(() => refunds.resendRefund(op, q.id, 1))).rejects.toMatchObject({
    code: 'INVALID_STATE_TRANSITION',
  });
  const both = settled(
    await Promise.allSettled([1, 2].map(() => rig.within(() => refunds.closeRepaidByReversal(op, q.id, 1)))),
  );
  expect(both).toEqual({ ok: 1, refused: ['INVALID_STATE_TRANSITION'] });
  expect(await railState(q.id)).toMatchObject({ railStatus: 'REFUND_CLOSED_REVERSED' });
  expect(await ledgerOf(q.id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_PULL_REVERSAL'], nonZero: 0 });
  expect(await refundEvents(q.id)).toEqual(['OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED']);
  expect(returnOf(refundReferenceOf(q.id))).toBeUndefined();
  await work();
  expect(returnOf(refundReferenceOf(q.id))).toBeUndefined();
});

it('a repeated request under one idempotency key answers as the first and sends once', async () => {
  const id = await failedRefund();
  const op = await member('operator');
  const present = {
    answer: (r: unknown) => ({ status: 200, text: stringifyJson(r) }),
    error: (e: unknown) => ({ status: 409, text: String((e as Error).message) }),
  };
  const run = () =>
    rig.within(() =>
      runCommandKeyed(refunds.resendRefundCommand, op, { transactionId: id, attempt: 1 }, { key: `k-${id}` }, present),
    );
  const [a, b] = await Promise.all([run(), run()]);
  const c = await run();
  const answers = [a, b, c].filter((x) => x.status === 200);
  // Concurrent: the second waits for the first's answer (or is told it is in progress); after: replayed.
  expect(answers.length).toBeGreaterThanOrEqual(2);
  expect(new Set(answers.map((x) => x.text)).size).toBe(1);
  expect(c).toMatchObject({ status: 200, source: 'replay' });
  expect((await row(id)).refundAttempt).toBe(2);
  expect((await historyOf(rig.p.platformId, [id])).filter((e) => e.action === 'refund.resend')).toHaveLength(1);
  expect((await refundEvents(id)).filter((t) => t.endsWith('REFUND_PENDING'))).toHaveLength(2);
});

it('the console reads it in words, with its references, and finds it under "refunds needing staff" until it is resolved', async () => {
  const id = await failedRefund();
  const p = rig.p.platformId;
  const view = await railViewOf(p, id);
  expect(view).toMatchObject({
    needsStaff: true,
    actions: ['RESEND', 'RECORD_OUTSIDE'],
    attempt: 1,
    refund: { amount: 5000n, currency: 'USD' },
    references: [
      { label: "Pull from the payer's bank", reference: pullReferenceOf(id) },
      { label: 'Payout', reference: id },
      { label: 'Refund', reference: refundReferenceOf(id) },
    ],
  });
  expect(view!.state).toMatch(/^Refund failed at the rail: the refund to the payer's bank failed \(ACCOUNT_INVALID\)/);
  const staffList = async () => (await transactions.list(p, { rail: 'STAFF' }, 100, 'desc')).data.map((t) => t.id);
  expect(await staffList()).toContain(id);
  const before = await railCounts(p);
  const op = await member('operator');
  // Not held: nothing was reversed, so there is nothing to close.
  await expect(rig.within(() => refunds.closeRepaidByReversal(op, id, 1))).rejects.toMatchObject({
    code: 'INVALID_STATE_TRANSITION',
  });
  await rig.within(() => refunds.recordRefundedOutside(op, id, 1, 'by cheque'));
  expect(await staffList()).not.toContain(id);
  expect((await railCounts(p)).staff).toBe(before.staff - 1);
  expect(await railViewOf(p, id)).toMatchObject({
    state: 'Refunded outside Corridor (recorded by staff)',
    note: 'recorded by staff as refunded outside Corridor: by cheque',
    needsStaff: false,
    actions: [],
  });
});
