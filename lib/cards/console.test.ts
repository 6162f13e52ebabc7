import { beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@/lib/core/errors';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import * as ops from '@/lib/staff/operations';
import * as staff from '@/lib/staff/service';
import { historyOf } from '@/lib/staff/audit';
import type { StaffActor } from '@/lib/staff/roles';
import * as cards from './service';
import { activeCard, cardholder, cardWebhooks, simulate } from './testing';
import { db } from '@/lib/core/db';

// The console's freeze / unfreeze / close go through the same card service and state machine as
// PATCH /cards/{id}, need the operator role, and leave an audit entry on the card.
let p: TestPlatform;
let n = 0;

async function member(role: 'viewer' | 'operator'): Promise<StaffActor> {
  const password = 'a-long-enough-password';
  const email = `cards-${role}-${process.pid}-${Date.now()}-${++n}@staff.example`;
  const { user } = await staff.createUser(p.platformId, { email, role, password }, db());
  const { sessionId } = await staff.signIn(user.email, password);
  return (await staff.actorOf(sessionId))!;
}
const code = (err: unknown) => (err instanceof DomainError ? err.code : String(err));

describe('cards in the console', () => {
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('freezes, unfreezes and closes a card as an operator, with the API rules and an audit trail', async () => {
    const card = await activeCard(p, await cardholder(p, 'Cora Console'));
    const operator = await member('operator');
    const viewer = await member('viewer');
    expect(code(await ops.setCardState(viewer, card.id, 'FROZEN').catch((e) => e))).toBe('FORBIDDEN');
    expect((await ops.setCardState(operator, card.id, 'FROZEN')).state).toBe('FROZEN');
    expect(code(await ops.setCardState(operator, card.id, 'FROZEN').catch((e) => e))).toBe('INVALID_STATE_TRANSITION');
    expect((await ops.setCardState(operator, card.id, 'ACTIVE')).state).toBe('ACTIVE');
    expect((await ops.setCardState(operator, card.id, 'CLOSED')).state).toBe('CLOSED');
    expect(code(await ops.setCardState(operator, card.id, 'CLOSED').catch((e) => e))).toBe('CARD_ALREADY_CLOSED');
    expect((await p.api.get(`/cards/${card.id}`)).body).toMatchObject({
      state: 'CLOSED',
      stateReason: 'CLOSED_BY_PLATFORM',
    });
    const audit = await historyOf(p.platformId, [card.id]);
    expect(audit.map((a) => a.action).sort()).toEqual(['card.active', 'card.closed', 'card.frozen']);
    const states = (await cardWebhooks(p.platformId)).filter((e) => e.data.id === card.id).map((e) => e.data.state);
    expect(states).toEqual(['ACTIVE', 'FROZEN', 'ACTIVE', 'CLOSED']);
  });

  it('shows the processor events of a card, declines included', async () => {
    const card = await activeCard(p, await cardholder(p, 'Eve Events'));
    const merchant = { descriptor: 'AMAZON RETAIL US-002', mcc: '5942', country: 'US' };
    const token = await simulate(p, card.id, 'authorization', { amount: 100, currency: { code: 'USD' }, merchant });
    await simulate(p, card.id, 'balance_inquiry', { merchant: { descriptor: 'SHELL OIL 12345678' } });
    const events = await cards.processorEventsOf(p.platformId, card.id);
    expect(events.map((e) => [e.kind, e.outcome, e.declineReason])).toEqual([
      ['BALANCE_INQUIRY', 'APPROVED', null],
      ['AUTHORIZATION', 'DECLINED', 'INSUFFICIENT_FUNDS'],
    ]);
    expect(events[1].issuerTransactionToken).toBe(token);
  });
});
