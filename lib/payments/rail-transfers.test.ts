import { expect, it, describe } from 'vitest';
import { runDueJobs } from '@/lib/jobs/queue';
import { NO_RAIL_CONNECTED, unconnectedPaymentRail } from '@/lib/payments/rail';
import { PULL_RETURNED_NOTE } from '@/lib/payments/rail-engine';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { balanceOf, txn } from '@/tests/support/money';
import { railHarness } from '@/tests/support/rail-harness';

// Transfers to and from external accounts in production, over the bring-your-own rail on loopback
// (tests/support/rail-harness.ts): /transfer-out is a PAYOUT instruction, /transfer-in a PULL whose
// amount stays pending until the rail reports it collected.
const rig = railHarness();
const { within, railState, eventTypes } = rig;

/** A /transfer-out or /transfer-in of `amount` cents with the USD bank account; the worker hands it to the rail. */
async function transfer(kind: 'out' | 'in', amount: number) {
  const body =
    kind === 'out'
      ? { source: { accountId: rig.h.accounts.USD }, destination: { accountId: rig.usdBank }, amount }
      : { source: { accountId: rig.usdBank }, destination: { accountId: rig.h.accounts.USD }, amount };
  const before = await balanceOf(rig.p, rig.h.accounts.USD);
  const res = await rig.p.api.post(`/transfer-${kind}`, body);
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('PROCESSING');
  await within(() => runDueJobs({ platformId: rig.p.platformId }));
  return { id: res.body.id as string, before };
}

describe('transfers to and from external accounts over the rail', () => {
  it('a transfer-out is a PAYOUT instruction: accepted, then COMPLETED once; FAILED refunds another', async () => {
    const { id, before } = await transfer('out', 4_000);
    expect(rig.receiver.instructions.get(id)?.instruction).toMatchObject({
      type: 'PAYOUT',
      reference: id,
      amount: '4000',
      currency: 'USD',
      account: { externalAccountId: rig.usdBank, accountType: 'USD_ACCOUNT' },
    });
    expect(await railState(id)).toMatchObject({ status: 'PROCESSING', railStatus: 'ACCEPTED' });
    expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'IGNORED' } });
    expect((await txn(rig.p, id)).status).toBe('COMPLETED');
    expect((await balanceOf(rig.p, rig.h.accounts.USD)).total).toBe(before.total - 4_000n);

    const failing = await transfer('out', 2_500);
    expect(await rig.receiver.report(failing.id, 'FAILED', { failureReason: 'ACCOUNT_INVALID' })).toMatchObject({
      status: 200,
      body: { result: 'APPLIED' },
    });
    expect(await txn(rig.p, failing.id)).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_INVALID' });
    expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(failing.before);
  });

  it('a transfer-in is a PULL: pending until COMPLETED makes it available; a late RETURN is noted, not posted', async () => {
    const { id, before } = await transfer('in', 700);
    expect(rig.receiver.instructions.get(id)?.instruction).toMatchObject({
      type: 'PULL',
      reference: id,
      amount: '700',
      currency: 'USD',
      rail: 'ACH',
      account: { externalAccountId: rig.usdBank, accountType: 'USD_ACCOUNT' },
    });
    // Collected only when the rail says so: pending in the total, not spendable.
    expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual({
      available: before.available,
      total: before.total + 700n,
    });
    expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    const after = await balanceOf(rig.p, rig.h.accounts.USD);
    expect(after).toEqual({ available: before.available + 700n, total: before.total + 700n });
    expect(await eventTypes(id)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);
    // The payer's bank reverses the debit days later: recorded for staff, the balance untouched.
    expect(await rig.receiver.report(id, 'RETURNED')).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    expect(await railState(id)).toEqual({ status: 'COMPLETED', railStatus: 'RETURNED', railNote: PULL_RETURNED_NOTE });
    expect(await rig.receiver.report(id, 'RETURNED')).toMatchObject({ status: 200, body: { result: 'IGNORED' } });
    expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(after);
  });

  it('a pull that FAILED (or was RETURNED before completing) withdraws the pending credit', async () => {
    for (const status of ['FAILED', 'RETURNED']) {
      const { id, before } = await transfer('in', 900);
      expect(await rig.receiver.report(id, status)).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
      expect(await txn(rig.p, id)).toMatchObject({ status: 'FAILED', failureReason: 'COLLECTION_FAILED' });
      expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual(before);
      expect(await rig.receiver.report(id, 'COMPLETED')).toMatchObject({ status: 200, body: { result: 'IGNORED' } });
      expect(await eventTypes(id)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
    }
  });

  it('with no rail connected a transfer-out waits PROCESSING with the reason, nothing decided', async () => {
    paymentRail.set(productionPaymentRail(unconnectedPaymentRail));
    try {
      const { id } = await transfer('out', 1_000);
      expect(await railState(id)).toEqual({ status: 'PROCESSING', railStatus: 'WAITING', railNote: NO_RAIL_CONNECTED });
      expect(rig.receiver.instructions.has(id)).toBe(false);
    } finally {
      rig.plugHttpRail();
    }
  });
});
