import { describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { runDueJobs } from '@/lib/jobs/queue';
import { readFigures } from '@/lib/ops/metrics-probe';
import { NO_RAIL_CONNECTED, unconnectedPaymentRail } from '@/lib/payments/rail';
import { signRailBody, verifyRailBody } from '@/lib/payments/rail-http';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { balanceOf, txn } from '@/tests/support/money';
import { railHarness } from '@/tests/support/rail-harness';
import { generateKeyPairSync } from 'node:crypto';

// The bring-your-own-rail adapter over real HTTP on loopback, in a production instance
// (tests/support/rail-harness.ts: the reference receiver examples/rail-receiver.mjs and Corridor's
// /rails/callbacks route). Accepted, completed, failed, returned late; duplicates, out of order,
// bad signatures; refused and retried submissions; and a production instance with no rail
// connected, which never pretends. Transfers over the rail: rail-transfers.test.ts.
const rig = railHarness();
const { within, railState, eventTypes } = rig;
const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** Quote and execute a payout of `amount` cents to the EUR account; the worker hands it to the rail. */
async function payOut(amount = 10_000) {
  const q = await rig.p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: rig.h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: rig.dest },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expect(q.status, q.text).toBe(201);
  const before = await balanceOf(rig.p, rig.h.accounts.USD);
  const ex = await rig.p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  expect(ex.body.status).toBe('PROCESSING');
  const id = q.body.transactionId as string;
  await runDueJobs({ platformId: rig.p.platformId });
  return { id, before, quote: q.body };
}

describe('bring-your-own rail over HTTP', () => {
  it('submits a signed instruction the receiver verifies, then COMPLETED settles it once', async () => {
    const { id, before, quote } = await payOut();
    const got = rig.receiver.instructions.get(id);
    expect(got?.instruction).toMatchObject({
      type: 'PAYOUT',
      reference: id,
      platformId: rig.p.platformId,
      amount: String(quote.totalReceivingAmount),
      currency: 'EUR',
      rail: 'SEPA_INSTANT',
      callbackUrl: rig.callbackUrl,
      account: { externalAccountId: rig.dest, accountType: 'EUR_ACCOUNT' },
    });
    // Accepted, not settled: nothing is decided until the rail reports.
    expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
    expect((await txn(rig.p, id)).status).toBe('PROCESSING');

    expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    const done = await txn(rig.p, id);
    expect(done.status).toBe('COMPLETED');
    expect((await balanceOf(rig.p, rig.h.accounts.USD)).total).toBe(before.total - 10_000n);
    // The same callback again (the rail resending): nothing changes.
    expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'IGNORED' } });
    // A FAILED arriving after COMPLETED cannot undo it.
    expect(await rig.receiver.report(id, 'FAILED', { eventId: 'late-fail' })).toMatchObject({
      status: 200,
      body: { result: 'IGNORED' },
    });
    expect((await txn(rig.p, id)).status).toBe('COMPLETED');
    expect((await balanceOf(rig.p, rig.h.accounts.USD)).total).toBe(before.total - 10_000n);
    expect(await eventTypes(id)).toEqual([
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED',
    ]);
  });

  it('FAILED fails the payout with its reason and refunds the debit', async () => {
    const { id, before } = await payOut();
    const r = await rig.receiver.report(id, 'FAILED', { failureReason: 'ACCOUNT_CANNOT_RECEIVE' });
    expect(r).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    expect(await txn(rig.p, id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'ACCOUNT_CANNOT_RECEIVE',
      refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
    });
    expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(before);
    expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'IGNORED' } });
    expect((await txn(rig.p, id)).status).toBe('FAILED');
  });

  it('RETURNED after COMPLETED (a bank returning it later) brings the principal back', async () => {
    const { id, before, quote } = await payOut();
    await rig.receiver.report(id, 'COMPLETED');
    const fees = BigInt(quote.feesIncluded ?? 0);
    const r = await rig.receiver.report(id, 'RETURNED');
    expect(r).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    expect(await txn(rig.p, id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYOUT_RETURNED' });
    expect((await balanceOf(rig.p, rig.h.accounts.USD)).total).toBe(before.total - fees);
    expect(await rig.receiver.report(id, 'RETURNED')).toMatchObject({ status: 200, body: { result: 'IGNORED' } });
    expect((await balanceOf(rig.p, rig.h.accounts.USD)).total).toBe(before.total - fees);
    expect(await railState(id)).toMatchObject({ railStatus: 'RETURNED' });
  });

  it('RETURNED before COMPLETED (out of order) completes then returns; the late COMPLETED changes nothing', async () => {
    const { id, before, quote } = await payOut();
    expect(await rig.receiver.report(id, 'RETURNED')).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'IGNORED' } });
    expect(await txn(rig.p, id)).toMatchObject({ status: 'FAILED', failureReason: 'PAYOUT_RETURNED' });
    expect((await balanceOf(rig.p, rig.h.accounts.USD)).total).toBe(before.total - BigInt(quote.feesIncluded ?? 0));
    expect(await eventTypes(id)).toEqual([
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED',
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
  });
});

describe('rail callbacks and submissions', () => {
  it('refuses a callback with a bad or missing signature, a bad body, an unknown reference', async () => {
    const { id } = await payOut();
    const post = (body: string, signature?: string) =>
      fetch(rig.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-grid-signature': signature } : {}) },
        body,
      });
    const body = JSON.stringify({ reference: id, status: 'COMPLETED' });
    expect((await post(body)).status).toBe(401);
    expect((await post(body, signRailBody(body, pair().privateKey))).status).toBe(401);
    // Signed by Corridor's own key (not the receiver's): refused too.
    expect((await post(body, signRailBody(body, rig.corridorKeys.privateKey))).status).toBe(401);
    // The right key over other bytes.
    expect((await post(`${body} `, signRailBody(body, rig.receiverKeys.privateKey))).status).toBe(401);
    expect((await railState(id)).status).toBe('PROCESSING');
    const bad = JSON.stringify({ reference: id, status: 'SETTLED' });
    expect((await post(bad, signRailBody(bad, rig.receiverKeys.privateKey))).status).toBe(400);
    const unknown = JSON.stringify({
      reference: 'Transaction:00000000-0000-0000-0000-000000000000',
      status: 'COMPLETED',
    });
    expect((await post(unknown, signRailBody(unknown, rig.receiverKeys.privateKey))).status).toBe(404);
    expect((await post(body, signRailBody(body, rig.receiverKeys.privateKey))).status).toBe(200);
    expect((await txn(rig.p, id)).status).toBe('COMPLETED');
  });

  it('a refused instruction fails the payout and refunds it', async () => {
    rig.carry = async () => ({ status: 'REFUSED', reason: 'account closed at the bank' });
    const { id, before } = await payOut();
    expect(await txn(rig.p, id)).toMatchObject({ status: 'FAILED', refund: { status: 'COMPLETED' } });
    expect(await railState(id)).toMatchObject({
      railStatus: 'FAILED',
      railNote: 'refused by the rail: account closed at the bank',
    });
    expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(before);
  });

  it('retries later when the rail asks to, or cannot be reached, and submits once accepted', async () => {
    rig.carry = async () => ({ status: 'RETRY', reason: 'bank cut-off' });
    const { id } = await payOut();
    expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'WAITING' });
    expect((await railState(id)).railNote).toMatch(/bank cut-off.*attempt 2 in 30 s/);
    const retry = await db().job.findFirstOrThrow({
      where: { kind: 'payment.submit', state: 'PENDING', payload: { path: ['transactionId'], equals: id } },
    });
    expect(retry.payload).toMatchObject({ attempt: 2 });

    // The rail down altogether (nothing listens there): still waiting, backing off further.
    rig.plugHttpRail('http://127.0.0.1:9/instructions');
    await db().job.update({ where: { id: retry.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await within(() => runDueJobs({ platformId: rig.p.platformId }));
    expect((await railState(id)).railNote).toMatch(/ECONNREFUSED.*attempt 3 in 60 s/);

    rig.plugHttpRail();
    rig.carry = async () => ({ status: 'ACCEPTED' });
    await db().job.updateMany({
      where: { kind: 'payment.submit', state: 'PENDING', payload: { path: ['transactionId'], equals: id } },
      data: { runAt: new Date(Date.now() - 1000) },
    });
    await within(() => runDueJobs({ platformId: rig.p.platformId }));
    expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
    await rig.receiver.report(id, 'COMPLETED');
    expect((await txn(rig.p, id)).status).toBe('COMPLETED');
  });

  it('verifies signatures made by the reference receiver and the adapter alike', () => {
    const body = '{"reference":"x","status":"COMPLETED"}';
    expect(verifyRailBody(body, signRailBody(body, rig.receiverKeys.privateKey), rig.receiverKeys.publicKey)).toBe(
      true,
    );
    expect(verifyRailBody(body, 'not base64 at all', rig.receiverKeys.publicKey)).toBe(false);
    expect(verifyRailBody(body, null, rig.receiverKeys.publicKey)).toBe(false);
  });
});

describe('production with no rail connected', () => {
  it('leaves the payout PROCESSING with the reason, counted in metrics, never SUCCESS', async () => {
    paymentRail.set(productionPaymentRail(unconnectedPaymentRail));
    try {
      const { id } = await payOut();
      await within(() => runDueJobs({ platformId: rig.p.platformId }));
      expect(await railState(id)).toEqual({ status: 'PROCESSING', railStatus: 'WAITING', railNote: NO_RAIL_CONNECTED });
      expect((await txn(rig.p, id)).status).toBe('PROCESSING');
      expect(await eventTypes(id)).not.toContain('OUTGOING_PAYMENT.COMPLETED');
      // Offered again later (a restart with a rail configured picks it up).
      const again = await db().job.findFirst({
        where: { kind: 'payment.submit', state: 'PENDING', payload: { path: ['transactionId'], equals: id } },
      });
      expect(again!.runAt.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
      const figures = await readFigures(db(), undefined);
      expect(figures.paymentsWaitingForRail.find((w) => w.reason === NO_RAIL_CONNECTED)?.count).toBeGreaterThanOrEqual(
        1,
      );
      // A callback has nowhere to go: no rail takes them.
      const res = await fetch(rig.callbackUrl, {
        method: 'POST',
        body: JSON.stringify({ reference: id, status: 'COMPLETED' }),
      });
      expect(res.status).toBe(404);
      expect((await txn(rig.p, id)).status).toBe('PROCESSING');
    } finally {
      rig.plugHttpRail();
    }
  });

  it('says so in the adapter summary printed at start-up', async () => {
    const { adapterSummary } = await import('@/lib/wiring');
    const { portsFor } = await import('@/lib/wiring');
    const lines = adapterSummary(new Map(portsFor('production', {})));
    expect(lines.join('\n')).toMatch(/payment rail: none \(NOT CONNECTED\).*no payment rail connected/);
    const sandbox = adapterSummary(new Map(portsFor('sandbox', {})));
    expect(sandbox.join('\n')).toMatch(/payment rail: sandbox \(simulated\)/);
  });
});
