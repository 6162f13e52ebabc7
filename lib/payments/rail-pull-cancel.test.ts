import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { SUBMIT_JOB, unconnectedPaymentRail } from '@/lib/payments/rail';
import { PULL_SUBMITTING, PULL_WITH_RAIL, pullReferenceOf } from '@/lib/payments/rail-collect';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { txn } from '@/tests/support/money';
import { ledgerOf, railHarness } from '@/tests/support/rail-harness';

// Cancelling a quote funded by a direct pull before the pull has collected its funds (production,
// the bring-your-own rail on loopback). Once the pull is with the rail the payer may be debited
// any moment, so the quote is not failed: the cancellation is refused until the funds are
// collected (then it is refunded over the rail, lib/payments/rail-refund.test.ts). Before the pull
// is handed over (no rail connected, or the rail asked to retry) it is cancelled and nothing is
// ever pulled; a submission under way and a cancellation exclude each other.
const rig = railHarness();
const { railState, work, pullQuote } = rig;

const cancel = (id: string) => rig.p.api.post(`/transactions/${id}/cancel`, {});
const pulled = (id: string) => rig.receiver.instructions.has(pullReferenceOf(id));
/** Makes the platform's pending submissions due now (the 15 minutes' recheck elapsed). */
const due = () =>
  db().job.updateMany({
    where: { platformId: rig.p.platformId, kind: SUBMIT_JOB, state: 'PENDING' },
    data: { runAt: new Date(0) },
  });

/** A pull-funded quote over SEPA (a rail a payout can be recalled from) executed with no rail connected. */
async function waitingQuote() {
  paymentRail.set(productionPaymentRail(unconnectedPaymentRail));
  try {
    const q = await pullQuote(5_000, { paymentRail: 'SEPA' });
    expect(await railState(q.id)).toMatchObject({ status: 'PROCESSING', railStatus: 'WAITING' });
    return q;
  } finally {
    rig.plugHttpRail();
  }
}

it('refuses to cancel while the pull is with the rail, and refunds over the rail once it collected', async () => {
  const { id } = await pullQuote(5_000, { paymentRail: 'SEPA' });
  expect(pulled(id)).toBe(true);
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  const refused = await cancel(id);
  expect(refused.status, refused.text).toBe(409);
  expect(refused.body.code).toBe('TRANSACTION_NOT_CANCELLABLE');
  expect(refused.body.message).toContain(PULL_WITH_RAIL);
  // Nothing changed: still collecting, the hold in place.
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD']);

  // The debit lands: the funds are collected and the quote is cancellable, refunded over the rail.
  expect((await rig.receiver.report(pullReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  const cancelled = await cancel(id);
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body.refund).toMatchObject({ status: 'PENDING', reason: 'USER_CANCELLATION' });
});

it('cancels a quote whose pull was never handed over, and never pulls it after', async () => {
  const { id } = await waitingQuote();
  const cancelled = await cancel(id);
  expect(cancelled.status, cancelled.text).toBe(200);
  // Nothing was collected, so nothing goes back over the rail: the hold is released at once.
  expect(cancelled.body.refund).toMatchObject({ status: 'COMPLETED', reason: 'USER_CANCELLATION' });
  expect((await ledgerOf(id)).nonZero).toBe(0);
  // The waiting submission comes due with a rail connected now: it sends nothing.
  await due();
  await work();
  expect(pulled(id)).toBe(false);
  expect((await txn(rig.p, id)).status).toBe('FAILED');
});

it('a submission under way and a cancellation exclude each other; a submission that died is taken up again', async () => {
  const { id } = await waitingQuote();
  // A worker marked the pull as being handed over and died before the rail's answer was recorded.
  await db().transaction.update({ where: { id }, data: { railStatus: PULL_SUBMITTING } });
  const refused = await cancel(id);
  expect(refused.status, refused.text).toBe(409);
  expect(refused.body.message).toContain(PULL_WITH_RAIL);
  await due();
  await work();
  expect(pulled(id)).toBe(true);
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });

  // Raced: of a cancellation and a submission of the same waiting pull, exactly one wins.
  const raced = await waitingQuote();
  await due();
  const [answer] = await Promise.all([cancel(raced.id), work()]);
  const state = await railState(raced.id);
  if (answer.status === 200) {
    expect(state.status).toBe('FAILED');
    expect(pulled(raced.id)).toBe(false);
  } else {
    expect(answer.status, answer.text).toBe(409);
    expect(state).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
    expect(pulled(raced.id)).toBe(true);
  }
});
