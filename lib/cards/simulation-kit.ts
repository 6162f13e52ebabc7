import { afterEach, beforeAll, expect } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { fund, type Holder } from '@/tests/support/money';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { db } from '@/lib/core/db';
import * as ledger from '@/lib/ledger/service';
import { activeCard, cardholder, cardWebhooks, simulate } from './testing';

// What the simulation tests share: a platform with a funded cardholder and an active card, the
// funding account's ledger buckets and the card network's balance, the newest card transaction,
// and after every test the ledger invariant and the card webhooks checked against the reference.
export const USD = { code: 'USD' };
export const shop = (descriptor = 'BLUE BOTTLE COFFEE SF') => ({ descriptor, mcc: '5814', country: 'US' });

export function simulationKit(name: string) {
  const s = {} as { p: TestPlatform; h: Holder; card: { id: string } };
  beforeAll(async () => {
    s.p = await newPlatform();
    s.h = await cardholder(s.p, name);
    await fund(s.p, s.h.accounts.USD, 100_000);
    s.card = await activeCard(s.p, s.h);
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.p.platformId);
    await cardWebhooks(s.p.platformId);
  });
  return {
    s,
    async buckets(id = s.h.accounts.USD) {
      const b = (await ledger.balances([id], db())).get(id)!;
      return { available: b.available, held: b.held, pending: b.pending };
    },
    async network() {
      const row = await db().ledgerAccount.findUnique({
        where: { id: ledger.systemAccount(s.p.platformId, 'WORLD:CARD', 'USD') },
      });
      return row?.balance ?? 0n;
    },
    /** The newest card transaction of the card, as the transaction list shows it. */
    async latest(cardId = s.card.id) {
      const res = await s.p.api.get('/transactions', { query: { type: 'CARD', accountIdentifier: cardId, limit: 1 } });
      expect(res.status, res.text).toBe(200);
      return res.body.data[0];
    },
    async get(id: string) {
      const res = await s.p.api.get(`/transactions/${id}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    authorize: (amount: number, descriptor?: string, cardId = s.card.id) =>
      simulate(s.p, cardId, 'authorization', { amount, currency: USD, merchant: shop(descriptor) }),
    declines: (token: string) =>
      db().cardEvent.findMany({ where: { issuerTransactionToken: token, outcome: 'DECLINED' } }),
  };
}
