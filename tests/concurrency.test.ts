import { describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { newPlatform, type TestPlatform } from './support/api';
import { expectLedgerBalanced } from './support/ledger';
import { advance, balanceOf, customerWithAccounts, externalAccount, fund, type Holder } from './support/money';

/** `count` quotes of 50.00 USD -> EUR between the holder's accounts, not yet executed. */
async function quotesToExecute(p: TestPlatform, h: Holder, count: number) {
  const quotes: { id: string; transactionId: string; total: bigint }[] = [];
  for (let i = 0; i < count; i++) {
    const q = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: h.accounts.EUR },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5000,
    });
    expect(q.status).toBe(201);
    quotes.push({ id: q.body.id, transactionId: q.body.transactionId, total: BigInt(q.body.totalSendingAmount) });
  }
  return quotes;
}

// Many executions and transfers at once against one account, with duplicates and repeated
// idempotency keys: nothing executes twice, nothing overdraws, the ledger still sums to zero.
describe('concurrent money movement', () => {
  it('never double-executes, never overdraws, keeps the ledger balanced', async () => {
    const p = await newPlatform();
    const h = await customerWithAccounts(p, 'Connie Current', ['USD', 'EUR']);
    const START = 100_000n;
    await fund(p, h.accounts.USD, START);
    const dest = await externalAccount(p, h.customerId, 'USD', '468');

    const quotes = await quotesToExecute(p, h, 24);

    const requests: Promise<{ kind: string; key: string; status: number; id?: string; body: unknown }>[] = [];
    for (const q of quotes) {
      // Each quote executed three times: twice under one idempotency key, once without.
      const key = crypto.randomUUID();
      for (const k of [key, key, undefined]) {
        requests.push(
          p.api
            .post(`/quotes/${q.id}/execute`, undefined, { headers: k ? { 'idempotency-key': k } : {} })
            .then((r) => ({ kind: 'execute', key: q.id, status: r.status, body: r.body })),
        );
      }
    }
    const transferKeys = Array.from({ length: 10 }, () => crypto.randomUUID());
    for (const key of transferKeys) {
      for (let n = 0; n < 2; n++) {
        requests.push(
          p.api
            .post(
              '/transfer-out',
              { source: { accountId: h.accounts.USD }, destination: { accountId: dest }, amount: 3000 },
              { headers: { 'idempotency-key': key } },
            )
            .then((r) => ({ kind: 'transfer', key, status: r.status, id: r.body?.id, body: r.body })),
        );
      }
    }
    // Interleave: shuffle the order the requests are issued in.
    const results = await Promise.all(requests.sort(() => Math.random() - 0.5));

    for (const r of results) expect([200, 201, 400, 409]).toContain(r.status);
    // Per quote: exactly one execution won or none did (insufficient funds); others saw 409 or a replay.
    let debited = 0n;
    for (const q of quotes) {
      const ex = results.filter((r) => r.kind === 'execute' && r.key === q.id);
      const won = ex.filter((r) => r.status === 200);
      const holds = await db().ledgerTransfer.count({
        where: { transactionId: q.transactionId, kind: 'PAYMENT_HOLD' },
      });
      expect(holds).toBeLessThanOrEqual(1);
      if (holds === 1) {
        debited += q.total;
        expect(won.length).toBeGreaterThanOrEqual(1); // the winner, plus maybe its idempotent replay
      } else {
        expect(won).toHaveLength(0);
      }
    }
    for (const key of transferKeys) {
      const pair = results.filter((r) => r.kind === 'transfer' && r.key === key);
      expect(pair[0].status).toBe(pair[1].status);
      if (pair[0].status === 201) {
        expect(pair[0].id).toBe(pair[1].id);
        debited += 3000n;
      }
    }
    const transfers = await db().transaction.count({
      where: { platformId: p.platformId, type: 'OUTGOING', quoteId: null },
    });
    expect(transfers).toBe(
      transferKeys.filter((k) => results.find((r) => r.kind === 'transfer' && r.key === k)!.status === 201).length,
    );
    expect(debited).toBeLessThanOrEqual(START);
    const mid = await balanceOf(p, h.accounts.USD);
    expect(mid.available).toBe(START - debited);
    expect(mid.available).toBeGreaterThanOrEqual(0n);
    await expectLedgerBalanced(p.platformId);

    await advance(p, 10);
    const end = await balanceOf(p, h.accounts.USD);
    expect(end.total).toBe(START - debited);
    await expectLedgerBalanced(p.platformId);
  });
});
