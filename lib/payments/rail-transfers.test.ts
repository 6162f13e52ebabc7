import { expect, it, describe } from 'vitest';
import { runDueJobs } from '@/lib/jobs/queue';
import { NO_RAIL_CONNECTED, unconnectedPaymentRail } from '@/lib/payments/rail';
import { PULL_RETURNED_NOTE } from '@/lib/payments/rail-engine';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { railViewOf } from '@/lib/payments/rail-view';
import { historyOf } from '@/lib/staff/audit';
import * as staffOps from '@/lib/staff/refund-operations';
import { ledgerOf, netOn, railHarness, staffList as staffListOf, staffMember } from '@/tests/support/rail-harness';
import { balanceOf, txn } from '@/tests/support/money';

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
    // The payer's bank reverses the debit days later: recorded for staff to take back, the balance untouched.
    expect(await rig.receiver.report(id, 'RETURNED')).toMatchObject({ status: 200, body: { result: 'APPLIED' } });
    expect(await railState(id)).toEqual({
      status: 'COMPLETED',
      railStatus: 'PULL_RETURNED',
      railNote: PULL_RETURNED_NOTE,
    });
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

it('a reversed pull is taken back by staff: the available balance covers what it can, the customer owes the rest; once', async () => {
  const op = await staffMember(rig.p.platformId, 'operator');
  const staffList = () => staffListOf(rig.p.platformId);
  const reversed = async () => {
    const { id } = await transfer('in', 700);
    await rig.receiver.report(id, 'COMPLETED');
    expect((await rig.receiver.report(id, 'RETURNED')).body).toMatchObject({ result: 'APPLIED' });
    expect(await staffList()).toContain(id);
    return id;
  };

  // The account covers it: 7.00 USD leave it, nothing is owed.
  const whole = await reversed();
  const before = await balanceOf(rig.p, rig.h.accounts.USD);
  expect(await railViewOf(rig.p.platformId, whole)).toMatchObject({
    needsStaff: true,
    actions: ['TAKE_BACK'],
    refund: { amount: 700n, currency: 'USD' },
    fromAccount: 700n,
    payerOwes: 0n,
  });
  await expect(within(() => staffOps.takeBackPull(op, whole, ' '))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  const both = await Promise.allSettled([1, 2].map(() => within(() => staffOps.takeBackPull(op, whole, 'ACH R10'))));
  expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect(await balanceOf(rig.p, rig.h.accounts.USD)).toEqual({
    available: before.available - 700n,
    total: before.total - 700n,
  });
  expect(await railState(whole)).toMatchObject({ status: 'COMPLETED', railStatus: 'PULL_TAKEN_BACK' });
  expect((await railState(whole)).railNote).toBe('taken back by staff: 7.00 USD from the account: ACH R10');
  expect((await ledgerOf(whole)).kinds).toEqual(['PULL_START', 'PULL_SETTLE', 'PULL_REVERSAL']);
  expect(await netOn(whole, 'WORLD:ACH')).toBe(0n);
  expect(await staffList()).not.toContain(whole);
  expect((await historyOf(rig.p.platformId, [whole]))[0]).toMatchObject({
    action: 'pull.take_back',
    details: { amount: '700', fromAccount: '700', customerOwes: '0', currency: 'USD', reason: 'ACH R10' },
  });

  // Spent meanwhile (a payout holds all but 2.00 USD): 2.00 USD from the account, 5.00 USD owed.
  const part = await reversed();
  const spend = await transfer('out', Number((await balanceOf(rig.p, rig.h.accounts.USD)).available - 200n));
  expect(await railViewOf(rig.p.platformId, part)).toMatchObject({ fromAccount: 200n, payerOwes: 500n });
  await within(() => staffOps.takeBackPull(op, part, 'ACH R10'));
  expect((await balanceOf(rig.p, rig.h.accounts.USD)).available).toBe(0n);
  expect(await netOn(part, 'PAYER_RECEIVABLE')).toBe(-500n);
  expect((await railState(part)).railNote).toContain('5.00 USD owed by the customer (payer receivable)');
  await rig.receiver.report(spend.id, 'FAILED', { failureReason: 'ACCOUNT_INVALID' }); // the hold goes back
});
