import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { amountsOf } from '@/lib/payments/plan';
import { PULL_REVERSED_NOTE, pullReferenceOf, refundReferenceOf } from '@/lib/payments/rail-collect';
import { refundActionsFor } from '@/lib/payments/rail-refund-ops';
import { railViewOf } from '@/lib/payments/rail-view';
import { historyOf } from '@/lib/staff/audit';
import * as refunds from '@/lib/staff/refund-operations';
import { ledgerOf, netOn, railHarness, staffList as staffListOf, staffMember } from '@/tests/support/rail-harness';

// The payer's bank reverses the pull that funded a quote after it completed, whatever became of
// the money (lib/payments/rail-refund-ops.ts): paid out to the payee, refunded to the payer, a
// refund returned, or fees kept after a returned payout. Every case ends in one staff action that
// posts exactly what happened — what the payer owes lands in the payer receivable — and never
// stays in "refunds needing staff" without one. Over the bring-your-own rail on loopback.
const rig = railHarness();
const { railState, eventTypes, work, pullQuote } = rig;
const operator = () => staffMember(rig.p.platformId, 'operator');

const row = (id: string) => db().transaction.findUniqueOrThrow({ where: { id } });
const report = async (reference: string, status: string) =>
  (await rig.receiver.report(reference, status)).body?.result as string;
const staffList = () => staffListOf(rig.p.platformId);
const refundEvents = async (id: string) => (await eventTypes(id)).filter((t) => t.includes('REFUND'));

/** A pull-funded quote of 5,000 whose pull COMPLETED and whose payout the rail has. */
async function collected() {
  const q = await pullQuote(5_000);
  expect(await report(pullReferenceOf(q.id), 'COMPLETED')).toBe('APPLIED');
  await work();
  expect(await railState(q.id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  return q.id;
}

const both = async (fn: () => Promise<unknown>) => {
  const all = await Promise.allSettled([fn(), fn()]);
  return {
    ok: all.filter((r) => r.status === 'fulfilled').length,
    refused: all.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : null)).filter(Boolean),
  };
};

it('paid out, then the pull reversed: the payer owes the whole amount, recorded once, and leaves the staff list', async () => {
  const id = await collected();
  expect(await report(id, 'COMPLETED')).toBe('APPLIED');
  expect(await report(pullReferenceOf(id), 'RETURNED')).toBe('APPLIED');
  expect(await railState(id)).toMatchObject({ status: 'COMPLETED', railStatus: 'PULL_RETURNED' });
  expect(refundActionsFor(await row(id))).toEqual(['RECORD_PAYER_OWES']);
  expect(await railViewOf(rig.p.platformId, id)).toMatchObject({ needsStaff: true, payerOwes: 5000n });
  expect(await staffList()).toContain(id);
  const op = await operator();
  expect(await both(() => rig.within(() => refunds.recordPayerOwes(op, id, 1)))).toEqual({
    ok: 1,
    refused: ['INVALID_STATE_TRANSITION'],
  });
  expect(await railState(id)).toMatchObject({ status: 'COMPLETED', railStatus: 'PULL_REVERSAL_RECORDED' });
  expect((await railState(id)).railNote).toContain('the payer owes 50.00 USD (payer receivable)');
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_SETTLE', 'PAYMENT_PULL_REVERSAL']);
  expect(await netOn(id, 'PAYER_RECEIVABLE')).toBe(-5000n);
  expect(await netOn(id, 'WORLD:ACH')).toBe(0n); // in with the pull, out with its reversal
  expect(await staffList()).not.toContain(id);
  const [entry] = await historyOf(rig.p.platformId, [id]);
  expect(entry).toMatchObject({
    action: 'refund.record_payer_owes',
    details: { amount: '5000', currency: 'USD', payerOwes: '5000' },
  });
});

it('a payout completing after the reversal arrived shows the reversal (it used to read COMPLETED)', async () => {
  const id = await collected();
  expect(await report(pullReferenceOf(id), 'RETURNED')).toBe('APPLIED');
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  expect(await report(id, 'COMPLETED')).toBe('APPLIED');
  expect(await railState(id)).toEqual({
    status: 'COMPLETED',
    railStatus: 'PULL_RETURNED',
    railNote: PULL_REVERSED_NOTE,
  });
  expect(refundActionsFor(await row(id))).toEqual(['RECORD_PAYER_OWES']);
});

it('refunded, then the pull reversed (in either order with the refund on its way): repaid twice, the payer owes it', async () => {
  for (const order of ['refund first', 'reversal while the refund is with the rail']) {
    const id = await collected();
    expect(await report(id, 'FAILED')).toBe('APPLIED');
    await work(); // the refund handed to the rail: REFUND_ACCEPTED
    if (order === 'refund first') {
      expect(await report(refundReferenceOf(id), 'COMPLETED')).toBe('APPLIED');
      expect(await report(pullReferenceOf(id), 'RETURNED')).toBe('APPLIED');
    } else {
      expect(await report(pullReferenceOf(id), 'RETURNED')).toBe('APPLIED');
      expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_ACCEPTED' });
      expect(await report(refundReferenceOf(id), 'COMPLETED')).toBe('APPLIED');
    }
    expect(await railState(id)).toMatchObject({ status: 'FAILED', railStatus: 'PULL_RETURNED' });
    expect(refundActionsFor(await row(id)), order).toEqual(['RECORD_PAYER_OWES']);
    await rig.within(async () => refunds.recordPayerOwes(await operator(), id, 1));
    expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_REFUND', 'PAYMENT_PULL_REVERSAL']);
    expect(await netOn(id, 'PAYER_RECEIVABLE')).toBe(-5000n);
  }
});

it('a refund the payer bank returned, and the pull reversed (either order): the payer has the money once; closed, nothing owed', async () => {
  for (const order of ['refund returned first', 'reversal first']) {
    const id = await collected();
    expect(await report(id, 'FAILED')).toBe('APPLIED');
    await work();
    expect(await report(refundReferenceOf(id), 'COMPLETED')).toBe('APPLIED');
    const [a, b] =
      order === 'reversal first'
        ? [pullReferenceOf(id), refundReferenceOf(id)]
        : [refundReferenceOf(id), pullReferenceOf(id)];
    expect(await report(a, 'RETURNED')).toBe('APPLIED');
    expect(await report(b, 'RETURNED')).toBe('APPLIED');
    expect(await railState(id), order).toMatchObject({ status: 'FAILED', railStatus: 'REFUND_RETURNED' });
    expect(refundActionsFor(await row(id))).toEqual(['CLOSE_REVERSED']);
    expect(await railViewOf(rig.p.platformId, id)).toMatchObject({ payerOwes: 0n });
    const events = await refundEvents(id);
    const op = await operator();
    await expect(rig.within(() => refunds.resendRefund(op, id, 1))).rejects.toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
    });
    expect(await both(() => rig.within(() => refunds.closeRepaidByReversal(op, id, 1)))).toMatchObject({ ok: 1 });
    expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_CLOSED_REVERSED' });
    // The refund's money came back and the reversal took it out again: nothing to post, nothing owed.
    expect(await ledgerOf(id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND'], nonZero: 0 });
    expect(await refundEvents(id)).toEqual(events); // it had been announced COMPLETED already
    expect(await staffList()).not.toContain(id);
  }
});

it('fees kept after a returned payout, then the reversal: closing posts the held principal out and the fees as owed', async () => {
  for (const recordedFirst of [false, true]) {
    const id = await collected();
    expect(await report(id, 'COMPLETED')).toBe('APPLIED');
    const op = await operator();
    expect(await report(pullReferenceOf(id), 'RETURNED')).toBe('APPLIED');
    // Recorded while paid out; the payout then comes back, which gives the payer's debt the principal.
    if (recordedFirst) await rig.within(() => refunds.recordPayerOwes(op, id, 1));
    expect(await report(id, 'RETURNED')).toBe('APPLIED');
    await work();
    expect(await railState(id)).toMatchObject({ status: 'FAILED', railStatus: 'REFUND_HELD' });
    const { total, net } = amountsOf(await row(id));
    const fees = total - net;
    expect(fees).toBeGreaterThan(0n);
    const view = await railViewOf(rig.p.platformId, id);
    expect(view).toMatchObject({
      actions: ['RECORD_OUTSIDE', 'CLOSE_REVERSED'],
      payerOwes: recordedFirst ? -net : fees,
    });
    await rig.within(() => refunds.closeRepaidByReversal(op, id, 1));
    expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_CLOSED_REVERSED' });
    expect((await railState(id)).railNote).toContain(
      recordedFirst ? 'set against what the payer owes' : 'the payer owes',
    );
    const kinds = (await ledgerOf(id)).kinds.filter((k) => k === 'PAYMENT_PULL_REVERSAL');
    expect(kinds).toHaveLength(recordedFirst ? 2 : 1);
    // Either way the payer owes the fees the reversal took back, and clearing holds nothing of it.
    expect(await netOn(id, 'PAYER_RECEIVABLE')).toBe(-fees);
    expect(await netOn(id, 'CLEARING')).toBe(0n);
    expect(await netOn(id, 'WORLD:ACH')).toBe(0n);
  }
});

it('the reversal and the completion of the payout or the refund arriving at once: the reversal is never lost', async () => {
  for (let i = 0; i < 3; i++) {
    const paid = await collected();
    const refunded = await collected();
    expect(await report(refunded, 'FAILED')).toBe('APPLIED');
    await work();
    await Promise.all([
      report(paid, 'COMPLETED'),
      report(pullReferenceOf(paid), 'RETURNED'),
      report(refundReferenceOf(refunded), 'COMPLETED'),
      report(pullReferenceOf(refunded), 'RETURNED'),
    ]);
    expect(await railState(paid)).toMatchObject({ status: 'COMPLETED', railStatus: 'PULL_RETURNED' });
    expect(await railState(refunded)).toMatchObject({ status: 'FAILED', railStatus: 'PULL_RETURNED' });
    expect(await staffList()).toEqual(expect.arrayContaining([paid, refunded]));
  }
});
