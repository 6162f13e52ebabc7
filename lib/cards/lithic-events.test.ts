import { describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { LITHIC_EVENT } from './lithic-events';
import { approved, holdOf, lithicProgram, paidOut, postEvents, transactionBody, webhookTypes } from './lithic-testing';

// Issue 25: in production an approved Lithic hold clears, expires and takes returns from Lithic's
// card_transaction.updated webhooks (POST /cards/lithic/events), each event applied exactly once
// whatever Lithic redelivers, with the ledger moving as the sandbox simulations move it.
const { s, wallet } = lithicProgram('Lev Lithic');

const update = (token: string, events: Parameters<typeof transactionBody>[2], authorized = 0) =>
  postEvents(transactionBody(token, s.cardToken, events, authorized));

describe('Lithic transaction events: clearing and expiry', () => {
  it('a CLEARING settles an ASA-approved hold: held to the network, SETTLED, its webhook', async () => {
    const before = await wallet();
    const token = await approved(s.cardToken, 2_500);
    expect(await wallet()).toMatchObject({ held: before.held + 2_500n });
    const res = await update(token, [{ type: 'CLEARING', amount: 2_500 }], 2_500);
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([
      { token: `${token}-event-0`, type: 'AUTHORIZATION', outcome: 'IGNORED', reason: expect.any(String) },
      { token: `${token}-event-1`, type: 'CLEARING', outcome: 'APPLIED' },
    ]);
    const t = await holdOf(token);
    expect(t).toMatchObject({ status: 'SETTLED', settledAmount: 2_500n, openAmount: 0n });
    expect(await wallet()).toEqual(paidOut(before, 2_500n));
    expect(await webhookTypes(s.p.platformId, t.id)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.SETTLED',
    ]);
    const clearing = await db().cardEvent.findFirstOrThrow({ where: { cardTransactionId: t.id, kind: 'CLEARING' } });
    expect(clearing.details).toMatchObject({ [LITHIC_EVENT]: `${token}-event-1`, lithicEventType: 'CLEARING' });
  });

  it('a partial CLEARING leaves the rest held until the AUTHORIZATION_EXPIRY releases it', async () => {
    const before = await wallet();
    const token = await approved(s.cardToken, 4_000);
    await update(token, [{ type: 'CLEARING', amount: 1_500 }], 4_000);
    expect(await holdOf(token)).toMatchObject({ status: 'PARTIALLY_SETTLED', openAmount: 2_500n });
    expect(await wallet()).toMatchObject({ held: before.held + 2_500n });
    const res = await update(token, [{ type: 'CLEARING', amount: 1_500 }, { type: 'AUTHORIZATION_EXPIRY' }], 4_000);
    expect((res.body.events as { outcome: string }[]).map((e) => e.outcome)).toEqual([
      'IGNORED',
      'ALREADY_APPLIED',
      'APPLIED',
    ]);
    const t = await holdOf(token);
    expect(t).toMatchObject({ status: 'SETTLED', settledAmount: 1_500n, openAmount: 0n });
    expect(await wallet()).toEqual(paidOut(before, 1_500n));
    expect(await webhookTypes(s.p.platformId, t.id)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.PARTIALLY_SETTLED',
      'CARD_TRANSACTION.SETTLED',
    ]);
  });

  it('an AUTHORIZATION_EXPIRY releases the whole hold back to available', async () => {
    const before = await wallet();
    const token = await approved(s.cardToken, 900);
    await update(token, [{ type: 'AUTHORIZATION_EXPIRY', amount: 900 }], 900);
    expect(await holdOf(token)).toMatchObject({ status: 'SETTLED', settledAmount: 0n, openAmount: 0n });
    expect(await wallet()).toEqual(before);
  });

  it('an AUTHORIZATION_REVERSAL of part re-sizes the hold; of the rest (Lithic signs it negative) releases it', async () => {
    const before = await wallet();
    const token = await approved(s.cardToken, 1_000);
    const partial = await update(token, [{ type: 'AUTHORIZATION_REVERSAL', amount: -400 }], 1_000);
    expect((partial.body.events as { outcome: string }[])[1].outcome).toBe('APPLIED');
    expect(await holdOf(token)).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: 600n, openAmount: 600n });
    expect(await wallet()).toMatchObject({ held: before.held + 600n });
    await update(token, [
      { type: 'AUTHORIZATION_REVERSAL', amount: -400 },
      { type: 'AUTHORIZATION_REVERSAL', amount: -600 },
    ]);
    expect(await holdOf(token)).toMatchObject({ status: 'SETTLED', openAmount: 0n, settledAmount: 0n });
    expect(await wallet()).toEqual(before);
  });
});

describe('Lithic transaction events: returns', () => {
  it('a RETURN refunds what settled, and its RETURN_REVERSAL pulls it again', async () => {
    const before = await wallet();
    const token = await approved(s.cardToken, 3_000);
    const events = [
      { type: 'CLEARING', amount: 3_000 },
      { type: 'RETURN', amount: -3_000 },
    ];
    await update(token, events, 3_000);
    const t = await holdOf(token);
    expect(t).toMatchObject({ status: 'REFUNDED', refundedAmount: 3_000n });
    expect(await wallet()).toEqual(before);
    await update(token, [...events, { type: 'RETURN_REVERSAL', amount: 3_000 }], 3_000);
    expect(await holdOf(token)).toMatchObject({ status: 'SETTLED', refundedAmount: 0n });
    expect(await wallet()).toEqual(paidOut(before, 3_000n));
    expect(await webhookTypes(s.p.platformId, t.id)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.SETTLED',
      'CARD_TRANSACTION.REFUNDED',
      'CARD_TRANSACTION.SETTLED',
    ]);
  });

  it('a return above what settled is refused and reported, and changes nothing', async () => {
    const token = await approved(s.cardToken, 500);
    await update(token, [{ type: 'CLEARING', amount: 500 }], 500);
    const before = await wallet();
    const res = await update(token, [
      { type: 'CLEARING', amount: 500 },
      { type: 'RETURN', amount: 800 },
    ]);
    expect(res.status).toBe(200);
    expect((res.body.events as { outcome: string }[])[2]).toMatchObject({ type: 'RETURN', outcome: 'REFUSED' });
    expect(await wallet()).toEqual(before);
    expect(await holdOf(token)).toMatchObject({ status: 'SETTLED', refundedAmount: 0n });
  });
});
