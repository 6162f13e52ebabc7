import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { readFigures } from '@/lib/ops/metrics-probe';
import { amountsOf } from '@/lib/payments/plan';
import { REFUND_JOB, REFUND_PENDING_NOTE, SUBMIT_JOB, unconnectedPaymentRail } from '@/lib/payments/rail';
import { PULL_REVERSED_NOTE, pullReferenceOf, refundReferenceOf } from '@/lib/payments/rail-collect';
import { REFUND_HELD_NOTE, REFUND_WAITING_FOR_RAIL } from '@/lib/payments/rail-refund';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { balanceOf, txn } from '@/tests/support/money';
import { ledgerOf, railHarness } from '@/tests/support/rail-harness';

// The money of a pull-funded quote goes back over the rail (lib/payments/rail-refund.ts): in
// production over the bring-your-own rail on loopback, once the rail has collected the pull, a
// payout that FAILS, is refused or comes back RETURNED leaves the transaction FAILED with its
// refund PENDING, and a RETURN instruction under `<id>:refund` carries the money to the payer's
// bank; the refund COMPLETES (and posts) only when the rail reports it. Also: a pull the payer's
// bank reverses after it completed, and a worker dying between the pull's completion and the
// payout's submission.
const rig = railHarness();
const { railState, eventTypes, work, pullQuote } = rig;

/** A pull-funded quote whose pull the rail COMPLETED and whose payout it ACCEPTED. */
async function collectedQuote(destination?: { paymentRail?: string }) {
  const q = await pullQuote(5_000, destination);
  expect((await rig.receiver.report(pullReferenceOf(q.id), 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  await work();
  expect(await railState(q.id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  return q;
}

const returnOf = (id: string) => rig.receiver.instructions.get(refundReferenceOf(id))?.instruction;
const refundOf = async (id: string) => (await txn(rig.p, id)).refund as Record<string, unknown> | undefined;
const refundEvents = async (id: string) => (await eventTypes(id)).filter((t) => t.includes('REFUND'));

/** Makes the platform's pending jobs of `kind` due now (their backoff, or the 15 minutes' recheck, elapsed). */
const due = (kind: string) =>
  db().job.updateMany({
    where: { platformId: rig.p.platformId, kind, state: 'PENDING' },
    data: { runAt: new Date(0) },
  });

it('a payout that FAILED after the pull collected: refund PENDING, a RETURN over the rail, COMPLETED only on its report', async () => {
  const usdBefore = await balanceOf(rig.p, rig.h.accounts.USD);
  const { id, quoteId } = await collectedQuote();
  const report = await rig.receiver.report(id, 'FAILED', { failureReason: 'ACCOUNT_INVALID' });
  expect(report).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
  expect(await txn(rig.p, id)).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_INVALID' });
  expect(await refundOf(id)).toMatchObject({ status: 'PENDING', reason: 'TRANSACTION_FAILED' });
  expect((await refundOf(id))?.settledAt).toBeUndefined();
  expect(await railState(id)).toEqual({
    status: 'FAILED',
    railStatus: 'REFUND_PENDING',
    railNote: REFUND_PENDING_NOTE,
  });
  expect((await rig.p.api.get(`/quotes/${quoteId}`)).body.status).toBe('FAILED');
  // Nothing posted yet: the money stays in clearing until the rail carries it back.
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD']);
  expect(await eventTypes(id)).toEqual([
    'OUTGOING_PAYMENT.PENDING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.FAILED',
    'OUTGOING_PAYMENT.REFUND_PENDING',
  ]);

  await work();
  expect(returnOf(id)).toMatchObject({
    type: 'RETURN',
    reference: refundReferenceOf(id),
    originalReference: pullReferenceOf(id),
    amount: '5000',
    currency: 'USD',
    rail: 'ACH',
    account: { externalAccountId: rig.usdBank, accountType: 'USD_ACCOUNT' },
  });
  expect(await railState(id)).toMatchObject({ status: 'FAILED', railStatus: 'REFUND_ACCEPTED' });
  expect((await refundOf(id))?.status).toBe('PENDING');

  // Duplicated, concurrent reports of the refund: one applies.
  const done = await Promise.all(
    [1, 2, 3].map((n) => rig.receiver.report(refundReferenceOf(id), 'COMPLETED', { eventId: `r-${n}` })),
  );
  expect(done.map((r) => r.body?.result).sort()).toEqual(['APPLIED', 'IGNORED', 'IGNORED']);
  const refund = await refundOf(id);
  expect(refund).toMatchObject({ status: 'COMPLETED', reason: 'TRANSACTION_FAILED' });
  expect(typeof refund?.settledAt).toBe('string');
  expect(await refundEvents(id)).toEqual(['OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED']);
  expect(await ledgerOf(id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND'], nonZero: 0 });
  expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_COMPLETED', railNote: null });
  // Worker re-runs and late, out-of-order reports change nothing.
  const sent = rig.receiver.received();
  await work();
  expect(rig.receiver.received()).toBe(sent);
  expect((await rig.receiver.report(refundReferenceOf(id), 'FAILED')).body).toMatchObject({ result: 'IGNORED' });
  expect((await rig.receiver.report(id, 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_REFUND']);
  expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(usdBefore);
});

it('a payout RETURNED after it completed: the principal goes back over the rail; a refund that FAILS stays in clearing', async () => {
  const { id } = await collectedQuote();
  expect((await rig.receiver.report(id, 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  expect((await rig.receiver.report(id, 'RETURNED')).body).toMatchObject({ result: 'APPLIED' });
  expect(await txn(rig.p, id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYOUT_RETURNED' });
  expect((await refundOf(id))?.status).toBe('PENDING');
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_SETTLE', 'PAYMENT_RETURN']);
  await work();
  // The principal, fees kept.
  const row = await db().transaction.findUniqueOrThrow({ where: { id } });
  expect(returnOf(id)).toMatchObject({ type: 'RETURN', amount: String(amountsOf(row).net), currency: 'USD' });
  expect(amountsOf(row).net).toBeLessThan(5000n);

  const failed = await rig.receiver.report(refundReferenceOf(id), 'FAILED', { failureReason: 'ACCOUNT_INVALID' });
  expect(failed.body).toMatchObject({ result: 'APPLIED' });
  expect((await refundOf(id))?.status).toBe('FAILED');
  expect(await railState(id)).toMatchObject({ railStatus: 'REFUND_FAILED' });
  expect((await railState(id)).railNote).toContain('stays in clearing');
  expect(await refundEvents(id)).toEqual(['OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_FAILED']);
  // Not posted: the principal is visibly held in clearing for operations.
  expect(await ledgerOf(id)).toMatchObject({ kinds: ['PAYMENT_HOLD', 'PAYMENT_SETTLE', 'PAYMENT_RETURN'] });
  expect((await ledgerOf(id)).nonZero).toBeGreaterThan(0);
  expect((await rig.receiver.report(refundReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
  expect((await ledgerOf(id)).kinds).toHaveLength(3);
});

it('out of order: a payout RETURNED before its COMPLETED completes, returns, and refunds over the rail once', async () => {
  const { id } = await collectedQuote();
  const both = await Promise.all([rig.receiver.report(id, 'RETURNED'), rig.receiver.report(id, 'RETURNED')]);
  expect(both.map((r) => r.body?.result).sort()).toEqual(['APPLIED', 'IGNORED']);
  expect((await rig.receiver.report(id, 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
  await Promise.all([work(), work()]);
  expect(returnOf(id)).toMatchObject({ type: 'RETURN' });
  expect((await rig.receiver.report(refundReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  expect(await ledgerOf(id)).toEqual({
    kinds: ['PAYMENT_HOLD', 'PAYMENT_SETTLE', 'PAYMENT_RETURN', 'PAYMENT_REFUND'],
    nonZero: 2, // fees kept: the service's and the platform's
  });
  expect((await refundOf(id))?.status).toBe('COMPLETED');
});

it('a payout the rail refuses after the pull collected is refunded over the rail; a refund COMPLETED before its answer is recorded', async () => {
  const q = await pullQuote();
  rig.carry = async (i) => {
    if (i.type === 'PAYOUT') return { status: 'REFUSED', reason: 'beneficiary bank closed' };
    if (i.type === 'RETURN') {
      // The rail reports the refund done before it answers the instruction itself.
      const r = await rig.receiver.report(i.reference as string, 'COMPLETED', { callbackUrl: i.callbackUrl as string });
      expect(r.body).toMatchObject({ result: 'APPLIED' });
    }
    return { status: 'ACCEPTED' };
  };
  await rig.receiver.report(pullReferenceOf(q.id), 'COMPLETED');
  await work();
  expect(await txn(rig.p, q.id)).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
  expect((await refundOf(q.id))?.status).toBe('PENDING');
  await work();
  expect(returnOf(q.id)).toMatchObject({ type: 'RETURN', amount: '5000' });
  // The late ACCEPTED answer did not move the settled refund back.
  expect(await railState(q.id)).toMatchObject({ railStatus: 'REFUND_COMPLETED' });
  expect((await refundOf(q.id))?.status).toBe('COMPLETED');
  expect(await ledgerOf(q.id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND'], nonZero: 0 });
});

it('with no rail connected the refund waits PENDING with the reason, and goes out once a rail is', async () => {
  const { id } = await collectedQuote();
  expect((await rig.receiver.report(id, 'FAILED')).body).toMatchObject({ result: 'APPLIED' });
  // The rail is disconnected before the refund is handed over.
  paymentRail.set(productionPaymentRail(unconnectedPaymentRail));
  try {
    await work();
    expect(await railState(id)).toEqual({
      status: 'FAILED',
      railStatus: 'REFUND_WAITING',
      railNote: REFUND_WAITING_FOR_RAIL,
    });
    expect((await refundOf(id))?.status).toBe('PENDING');
    expect(returnOf(id)).toBeUndefined();
    expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD']);
    // Counted by the waiting-for-rail gauge, and offered again in 15 minutes.
    const figures = await readFigures(db(), undefined);
    expect(
      figures.paymentsWaitingForRail.find((w) => w.reason === REFUND_WAITING_FOR_RAIL)?.count,
    ).toBeGreaterThanOrEqual(1);
    const again = await db().job.findFirst({
      where: { kind: REFUND_JOB, state: 'PENDING', payload: { path: ['transactionId'], equals: id } },
    });
    expect(again!.runAt.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
  } finally {
    rig.plugHttpRail();
  }
  await due(REFUND_JOB);
  await work();
  expect(returnOf(id)).toMatchObject({ type: 'RETURN', amount: '5000' });
  expect((await rig.receiver.report(refundReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  expect((await refundOf(id))?.status).toBe('COMPLETED');
});

it('a pull the payer bank returns after it completed is recorded on the transaction, never posted; a refund not yet sent is held', async () => {
  // Paid out in full, then the payer's bank reverses the debit.
  const { id } = await collectedQuote();
  await rig.receiver.report(id, 'COMPLETED');
  const reversed = await rig.receiver.report(pullReferenceOf(id), 'RETURNED');
  expect(reversed).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
  expect(await railState(id)).toEqual({
    status: 'COMPLETED',
    railStatus: 'PULL_RETURNED',
    railNote: PULL_REVERSED_NOTE,
  });
  expect((await db().transaction.findUniqueOrThrow({ where: { id } })).pullReturnedAt).toBeInstanceOf(Date);
  expect((await rig.receiver.report(pullReferenceOf(id), 'RETURNED')).body).toMatchObject({ result: 'IGNORED' });
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_SETTLE']);

  // The payout failed and the refund is still to be sent when the reversal arrives: sending it
  // would pay the payer twice, so it is held for staff.
  const second = await collectedQuote();
  await rig.receiver.report(second.id, 'FAILED');
  expect((await rig.receiver.report(pullReferenceOf(second.id), 'RETURNED')).body).toMatchObject({ result: 'APPLIED' });
  expect(await railState(second.id)).toMatchObject({ railStatus: 'REFUND_PENDING', railNote: PULL_REVERSED_NOTE });
  await work();
  expect(await railState(second.id)).toEqual({
    status: 'FAILED',
    railStatus: 'REFUND_HELD',
    railNote: REFUND_HELD_NOTE,
  });
  expect(returnOf(second.id)).toBeUndefined();
  expect((await ledgerOf(second.id)).kinds).toEqual(['PAYMENT_HOLD']);
});

it('a worker dying between the pull completion and the payout submission: one PAYOUT, one reference, posted once', async () => {
  const { id } = await pullQuote();
  let payoutsCarried = 0;
  rig.carry = async (i) => {
    if (i.type === 'PAYOUT') payoutsCarried += 1;
    return { status: 'ACCEPTED' };
  };
  expect((await rig.receiver.report(pullReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  // The pull's completion and the payout's submit job were committed together: the job is there.
  const jobs = () =>
    db().job.findMany({ where: { platformId: rig.p.platformId, kind: SUBMIT_JOB, state: { not: 'DONE' } } });
  expect((await jobs()).filter((j) => (j.payload as { transactionId: string }).transactionId === id)).toHaveLength(1);

  // 1. The worker hands the payout to the rail, which takes it, and dies before recording the answer.
  const rail = paymentRail.get();
  paymentRail.set({
    ...rail,
    submit: async (i) => {
      await rail.submit(i);
      throw new Error('worker process died');
    },
  });
  try {
    await work();
  } finally {
    paymentRail.set(rail);
  }
  expect(payoutsCarried).toBe(1);
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: null });
  // 2. Another worker's claim dies too, holding the job until its lease runs out.
  const [job] = (await jobs()).filter((j) => (j.payload as { transactionId: string }).transactionId === id);
  await db().job.update({
    where: { id: job.id },
    data: {
      state: 'RUNNING',
      lockedBy: 987_654,
      lockedAt: new Date(),
      leaseUntil: new Date(Date.now() - 1000),
      runAt: new Date(0),
    },
  });
  // 3. A live worker takes it over and submits again: same reference, which the rail carries once.
  await work();
  await work();
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  expect(payoutsCarried).toBe(1);
  expect([...rig.receiver.instructions.keys()].filter((k) => k.startsWith(id))).toEqual([pullReferenceOf(id), id]);
  const done = await Promise.all([1, 2].map(() => rig.receiver.report(id, 'COMPLETED')));
  expect(done.map((r) => r.body?.result).sort()).toEqual(['APPLIED', 'IGNORED']);
  expect(await txn(rig.p, id)).toMatchObject({ status: 'COMPLETED' });
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_SETTLE']);
});

it('a collected pull-funded quote cancelled while its payout is with the rail is refunded over the rail', async () => {
  // Over SEPA (not instant): a bank rail a payout can be recalled from.
  const { id } = await collectedQuote({ paymentRail: 'SEPA' });
  const cancelled = await rig.p.api.post(`/transactions/${id}/cancel`, {});
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body.refund).toMatchObject({ status: 'PENDING', reason: 'USER_CANCELLATION' });
  await work();
  expect(returnOf(id)).toMatchObject({ type: 'RETURN', amount: '5000' });
  expect((await rig.receiver.report(refundReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  expect(await refundOf(id)).toMatchObject({ status: 'COMPLETED', reason: 'USER_CANCELLATION' });
  expect(await ledgerOf(id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_REFUND'], nonZero: 0 });
});
