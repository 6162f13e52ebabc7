import { expect, it } from 'vitest';
import { Prisma, db } from '@/lib/core/db';
import { foldRunningTotals } from '@/lib/core/running-totals';
import { totalsByCurrency } from '@/lib/ledger/reports';
import { bucketAccount, posting, runStep } from '@/lib/ledger/service';
import { completedVolumesSince } from '@/lib/payments/transactions/volume-repository';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { advance, customerWithAccounts, externalAccount, fund, txn } from '@/tests/support/money';

// The console overview's figures come from running totals (migration 20261128100000): postings
// and completions append changes, the worker folds them. Whatever the interleaving, the figures
// must equal what the rows themselves say.

/** The platform's holdings summed straight from its ledger accounts (what the totals replace). */
async function holdingsFromLedger(platformId: string) {
  const rows = await db().$queryRaw<{ currency: string; bucket: string; total: bigint }[]>(Prisma.sql`
    SELECT "currency", "bucket", sum("balance")::bigint AS total FROM "LedgerAccount"
    WHERE "platformId" = ${platformId} AND "internalAccountId" IS NOT NULL GROUP BY 1, 2`);
  const out: Record<string, Record<string, bigint>> = {};
  for (const r of rows) (out[r.currency] ??= { AVAILABLE: 0n, HELD: 0n, PENDING: 0n })[r.bucket] = r.total;
  return withoutEmpty(out);
}

/** Currencies holding nothing in any bucket (accounts opened, never funded) are not listed. */
const withoutEmpty = (holdings: Record<string, Record<string, bigint>>) =>
  Object.fromEntries(Object.entries(holdings).filter(([, b]) => Object.values(b).some((v) => v !== 0n)));

async function holdingsFromTotals(platformId: string) {
  const out: Record<string, Record<string, bigint>> = {};
  for (const t of await totalsByCurrency(platformId))
    out[t.currency] = { AVAILABLE: t.available, HELD: t.held, PENDING: t.pending };
  return withoutEmpty(out);
}

const pendingChanges = (platformId: string) => db().runningTotalChange.count({ where: { platformId } });

const transfer = (platformId: string, from: string, to: string, amount: bigint) =>
  runStep(
    {
      moves: [],
      writes: [],
      announce: [],
      posting: posting({
        platformId,
        kind: 'TEST',
        legs: [
          { account: bucketAccount(from, 'AVAILABLE'), currency: 'USD', amount: -amount },
          { account: bucketAccount(to, 'HELD'), currency: 'USD', amount },
        ],
      }),
    },
    db(),
  );

it('holdings equal the ledger, folded or not, while postings and folds run concurrently', async () => {
  const p = await newPlatform();
  const a = await customerWithAccounts(p, 'Tara Totals', ['USD', 'EUR']);
  const b = await customerWithAccounts(p, 'Ulf Totals', ['USD']);
  await fund(p, a.accounts.USD, 50_000n);
  await fund(p, a.accounts.EUR, 7_000n);
  expect(await pendingChanges(p.platformId)).toBeGreaterThan(0);
  expect(await holdingsFromTotals(p.platformId)).toEqual(await holdingsFromLedger(p.platformId));

  const work: Promise<unknown>[] = [];
  for (let i = 0; i < 30; i++) {
    work.push(transfer(p.platformId, a.accounts.USD, b.accounts.USD, BigInt(10 + i)));
    if (i % 3 === 0) work.push(fund(p, b.accounts.USD, 100 + i));
    if (i % 5 === 0) work.push(foldRunningTotals(), foldRunningTotals(p.platformId));
  }
  await Promise.all(work);
  const expected = await holdingsFromLedger(p.platformId);
  expect(expected.USD.HELD).toBe(BigInt(30 * 10 + (29 * 30) / 2));
  expect(await holdingsFromTotals(p.platformId)).toEqual(expected);

  expect(await foldRunningTotals(p.platformId)).toBeGreaterThanOrEqual(0);
  expect(await pendingChanges(p.platformId)).toBe(0);
  expect(await holdingsFromTotals(p.platformId)).toEqual(expected);
  // Folding again changes nothing; another platform's totals are its own.
  await Promise.all([foldRunningTotals(), foldRunningTotals()]);
  expect(await holdingsFromTotals(p.platformId)).toEqual(expected);
  const other = await newPlatform();
  expect(await holdingsFromTotals(other.platformId)).toEqual({});
});

async function payout(p: TestPlatform, from: string, customerId: string, suffix: string) {
  const dest = await externalAccount(p, customerId, 'EUR', suffix);
  const q = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: from },
    destination: { destinationType: 'ACCOUNT', accountId: dest },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
  });
  expect(q.status, q.text).toBe(201);
  const ex = await p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  return q.body.transactionId as string;
}

it('completed volume counts a payment on its creation day once it completes, and takes it back when it is returned', async () => {
  const p = await newPlatform();
  const h = await customerWithAccounts(p, 'Vera Volume', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000n);
  const longAgo = new Date('2000-01-01T00:00:00Z');
  expect(await completedVolumesSince(p.platformId, longAgo)).toEqual([]);

  const kept = await payout(p, h.accounts.USD, h.customerId, '123');
  const returned = await payout(p, h.accounts.USD, h.customerId, '005');
  expect(await completedVolumesSince(p.platformId, longAgo)).toEqual([]); // processing, not completed
  await advance(p, 5);
  expect((await txn(p, kept)).status).toBe('COMPLETED');
  expect((await txn(p, returned)).status).toBe('COMPLETED');
  const rows = await db().transaction.findMany({ where: { id: { in: [kept, returned] } } });
  const sent = rows.reduce((s, r) => s + (r.sentAmount ?? 0n), 0n);
  expect(sent).toBeGreaterThan(0n);
  expect(await completedVolumesSince(p.platformId, longAgo)).toEqual([{ currency: 'USD', count: 2, amount: sent }]);

  await foldRunningTotals(p.platformId);
  await advance(p, 60); // the receiving bank returns '005': COMPLETED -> FAILED
  expect((await txn(p, returned)).status).toBe('FAILED');
  const keptRow = rows.find((r) => r.id === kept)!;
  expect(await completedVolumesSince(p.platformId, longAgo)).toEqual([
    { currency: 'USD', count: 1, amount: keptRow.sentAmount },
  ]);
  // Counted on the day it was created: a window starting the next UTC day leaves it out.
  const nextDay = new Date(keptRow.createdAt.getTime() + 86_400_000);
  expect(await completedVolumesSince(p.platformId, nextDay)).toEqual([]);
  expect(await completedVolumesSince(p.platformId, keptRow.createdAt)).toHaveLength(1);
});
