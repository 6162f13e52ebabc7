import { expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { unconnectedPaymentRail } from '@/lib/payments/rail';
import { applyRailEvent } from '@/lib/payments/rail-engine';
import { COLLECTED_NOTE, pullReferenceOf, PULL_WAITING_FOR_RAIL } from '@/lib/payments/rail-collect';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { balanceOf, customerWithAccounts, txn } from '@/tests/support/money';
import { ledgerOf, railHarness } from '@/tests/support/rail-harness';

// A quote funded by a direct pull from the customer's USD bank account, in production over the
// bring-your-own rail on loopback (tests/support/rail-harness.ts): first a PULL of the sending
// total under `<id>:pull`; only once the rail reports it COMPLETED, the PAYOUT of the receiving
// amount under the transaction id. A pull that fails pays nothing out and unwinds the ledger.
const rig = railHarness();
const { within, railState, eventTypes, work, pullQuote } = rig;

const payoutsTo = (id: string) => (rig.receiver.instructions.get(id) ? 1 : 0);

it('pulls the sending total first, pays out the receiving amount only after the pull COMPLETED', async () => {
  const usdBefore = await balanceOf(rig.p, rig.h.accounts.USD);
  const { id, quoteId, receiving } = await pullQuote();
  expect(rig.receiver.instructions.get(pullReferenceOf(id))?.instruction).toMatchObject({
    type: 'PULL',
    reference: pullReferenceOf(id),
    amount: '5000',
    currency: 'USD',
    rail: 'ACH',
    account: { externalAccountId: rig.usdBank, accountType: 'USD_ACCOUNT' },
  });
  expect(payoutsTo(id)).toBe(0);
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  // A payout event before the pull completed is about nothing Corridor sent.
  expect(await within(() => applyRailEvent({ reference: id, status: 'COMPLETED' }))).toBe('IGNORED');

  expect(await rig.receiver.report(pullReferenceOf(id), 'COMPLETED')).toMatchObject({
    status: 200,
    body: { result: 'APPLIED' },
  });
  expect(await railState(id)).toEqual({ status: 'PROCESSING', railStatus: null, railNote: COLLECTED_NOTE });
  expect(payoutsTo(id)).toBe(0); // handed over by the worker, not by the callback
  await work();
  expect(rig.receiver.instructions.get(id)?.instruction).toMatchObject({
    type: 'PAYOUT',
    reference: id,
    amount: String(receiving),
    currency: 'EUR',
    account: { externalAccountId: rig.dest, accountType: 'EUR_ACCOUNT' },
  });
  expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
  expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
  expect(await txn(rig.p, id)).toMatchObject({ status: 'COMPLETED', sentAmount: { amount: 5000 } });
  expect((await rig.p.api.get(`/quotes/${quoteId}`)).body.status).toBe('COMPLETED');
  expect(await eventTypes(id)).toEqual([
    'OUTGOING_PAYMENT.PENDING',
    'OUTGOING_PAYMENT.PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED',
  ]);
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_SETTLE']);
  // No internal balance paid for it: the money came from the bank account.
  expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(usdBefore);
  // Late duplicates of either event change nothing.
  expect((await rig.receiver.report(pullReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
  expect((await rig.receiver.report(id, 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
});

it('a pull that FAILED or was RETURNED before completing fails the quote: no payout, the ledger unwound', async () => {
  for (const status of ['FAILED', 'RETURNED']) {
    const usdBefore = await balanceOf(rig.p, rig.h.accounts.USD);
    const { id, quoteId } = await pullQuote();
    const report = await rig.receiver.report(pullReferenceOf(id), status, { failureReason: 'ACCOUNT_INVALID' });
    expect(report).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    const t = await txn(rig.p, id);
    expect(t).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
    expect(t.refund).toBeUndefined();
    expect((await railState(id)).railNote).toContain('nothing was paid out');
    expect((await rig.p.api.get(`/quotes/${quoteId}`)).body.status).toBe('FAILED');
    // A COMPLETED arriving after the failure changes nothing, and no payout ever goes out.
    expect((await rig.receiver.report(pullReferenceOf(id), 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
    await work();
    expect(payoutsTo(id)).toBe(0);
    expect(await ledgerOf(id)).toEqual({ kinds: ['PAYMENT_HOLD', 'PAYMENT_RELEASE'], nonZero: 0 });
    expect(await eventTypes(id)).toEqual([
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.FAILED',
    ]);
    expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(usdBefore);
  }
});

it('a pull the rail refuses fails the quote at once, nothing paid out', async () => {
  rig.carry = async (i) =>
    i.type === 'PULL' ? { status: 'REFUSED', reason: 'account closed' } : { status: 'ACCEPTED' };
  const { id } = await pullQuote();
  expect(await txn(rig.p, id)).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
  expect(await railState(id)).toMatchObject({
    railStatus: 'FAILED',
    railNote: 'pull refused by the rail: account closed',
  });
  expect(payoutsTo(id)).toBe(0);
  expect((await ledgerOf(id)).nonZero).toBe(0);
});

it('repeated and concurrent pull callbacks and a re-run worker hand over one payout', async () => {
  const { id } = await pullQuote();
  const before = rig.receiver.received();
  const results = await Promise.all(
    [1, 2, 3, 4].map((n) => rig.receiver.report(pullReferenceOf(id), 'COMPLETED', { eventId: `dup-${n}` })),
  );
  expect(results.map((r) => r.body?.result).sort()).toEqual(['APPLIED', 'IGNORED', 'IGNORED', 'IGNORED']);
  await Promise.all([work(), work()]);
  await work();
  // One payout instruction reached the rail, once.
  expect(rig.receiver.received() - before).toBe(1);
  expect(rig.receiver.instructions.get(id)?.instruction).toMatchObject({ type: 'PAYOUT' });
  const done = await Promise.all([1, 2, 3].map(() => rig.receiver.report(id, 'COMPLETED')));
  expect(done.map((r) => r.body?.result).sort()).toEqual(['APPLIED', 'IGNORED', 'IGNORED']);
  expect((await txn(rig.p, id)).status).toBe('COMPLETED');
  expect((await ledgerOf(id)).kinds).toEqual(['PAYMENT_HOLD', 'PAYMENT_SETTLE']);
});

it('a pull-funded quote into an internal account credits it only after the pull COMPLETED', async () => {
  const eur = (await customerWithAccounts(rig.p, 'Rail Receiver', ['EUR'])).accounts.EUR;
  const before = await balanceOf(rig.p, eur);
  const q = await rig.p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: rig.usdBank },
    destination: { destinationType: 'ACCOUNT', accountId: eur },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 4_000,
  });
  expect(q.status, q.text).toBe(201);
  const ex = await rig.p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  const id = q.body.transactionId as string;
  await work();
  expect(rig.receiver.instructions.get(pullReferenceOf(id))?.instruction).toMatchObject({
    type: 'PULL',
    amount: '4000',
  });
  // No scripted outcome that would complete it on its own after a delay: the rail's report decides.
  expect((await db().transaction.findUnique({ where: { id } }))?.scenario).toBeNull();
  await work();
  expect((await txn(rig.p, id)).status).toBe('PROCESSING');
  expect(await balanceOf(rig.p, eur)).toEqual(before);
  expect(payoutsTo(id)).toBe(0);

  const done = await rig.receiver.report(pullReferenceOf(id), 'COMPLETED');
  expect(done).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
  await work();
  expect((await txn(rig.p, id)).status).toBe('COMPLETED');
  const after = await balanceOf(rig.p, eur);
  expect(after.available - before.available).toBe(BigInt(q.body.totalReceivingAmount));
  expect(payoutsTo(id)).toBe(0); // landed here: nothing handed to the rail as a payout
});

it('with no rail connected it waits PROCESSING with the reason; nothing is pulled or paid', async () => {
  paymentRail.set(productionPaymentRail(unconnectedPaymentRail));
  try {
    const { id } = await pullQuote();
    expect(await railState(id)).toEqual({
      status: 'PROCESSING',
      railStatus: 'WAITING',
      railNote: PULL_WAITING_FOR_RAIL,
    });
    expect(rig.receiver.instructions.has(pullReferenceOf(id))).toBe(false);
    expect(payoutsTo(id)).toBe(0);
  } finally {
    rig.plugHttpRail();
  }
});
