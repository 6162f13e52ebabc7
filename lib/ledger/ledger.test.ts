import { expect, it } from 'vitest';
import { db, transaction } from '@/lib/core/db';
import type { Guard } from '@/lib/core/sql';
import { parseJson } from '@/lib/core/json';
import { eventWrites } from '@/lib/events/outbox';
import * as accountsRepo from '@/lib/accounts/repository';
import { balanceAnnouncements } from '@/lib/payments/balances';
import { newPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { balanceOf, customerWithAccounts, fund } from '@/tests/support/money';
import { InsufficientFunds, bucketAccount, posting, runStep, runSteps, systemAccount, type Step } from './service';

// The ledger's write path: a step (guarded moves, rows, a posting, balance events) is written
// whole or not at all, whether it runs as one statement or inside a caller's transaction.

async function setup() {
  const p = await newPlatform();
  const h = await customerWithAccounts(p, 'Lena Ledger', ['USD']);
  const other = await customerWithAccounts(p, 'Otto Other', ['USD']);
  await fund(p, h.accounts.USD, 10_000n);
  return { p, a: h.accounts.USD, b: other.accounts.USD };
}

const transferLegs = (from: string, to: string, amount: bigint) => [
  { account: bucketAccount(from, 'AVAILABLE'), currency: 'USD', amount: -amount },
  { account: bucketAccount(to, 'AVAILABLE'), currency: 'USD', amount },
];

/** A guarded move that matches the account once (it sets privateEnabled): a second run is stale. */
const touch = (accountId: string, marker: Date): Guard => ({
  table: 'InternalAccount',
  where: { id: accountId, privateEnabled: null },
  set: { privateEnabled: true, updatedAt: marker },
  required: true,
});

function step(platformId: string, legs: ReturnType<typeof transferLegs>, extra: Partial<Step> = {}): Step {
  return { moves: [], writes: [], announce: [], posting: posting({ platformId, kind: 'TEST', legs }), ...extra };
}

const transfersOf = (id: string) => db().ledgerTransfer.count({ where: { id } });

it('moves money, writes its rows and renders the new balances into the balance events', async () => {
  const { p, a, b } = await setup();
  const rows = await accountsRepo.byIds([a, b], db());
  const s = step(p.platformId, transferLegs(a, b, 2_500n), {
    writes: eventWrites(p.platformId, [{ type: 'TEST', data: { note: 'step ran' } }]),
    announce: balanceAnnouncements(p.platformId, rows),
  });
  expect(await runStep(s, db())).toBe(true);
  expect(await balanceOf(p, a)).toEqual({ available: 7_500n, total: 7_500n });
  expect(await balanceOf(p, b)).toEqual({ available: 2_500n, total: 2_500n });
  expect(await transfersOf(s.posting!.transfer.id)).toBe(1);
  const events = await db().event.findMany({
    where: { platformId: p.platformId, type: { in: ['TEST', 'INTERNAL_ACCOUNT.BALANCE_UPDATED'] } },
    orderBy: { seq: 'asc' },
  });
  const balanceEvents = events
    .filter((e) => e.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED')
    .map(
      (e) =>
        parseJson(e.payload) as {
          data: { id: string; balance: { amount: number }; totalBalance: { amount: number } };
        },
    );
  const byAccount = new Map(balanceEvents.slice(-2).map((e) => [e.data.id, e.data]));
  expect(byAccount.get(a)).toMatchObject({ balance: { amount: 7500 }, totalBalance: { amount: 7500 } });
  expect(byAccount.get(b)).toMatchObject({ balance: { amount: 2500 }, totalBalance: { amount: 2500 } });
  expect(events.some((e) => e.type === 'TEST')).toBe(true);
  await expectLedgerBalanced(p.platformId);
});

it('refuses an overdraft with InsufficientFunds and leaves nothing behind', async () => {
  const { p, a, b } = await setup();
  const marker = new Date('2030-01-01T00:00:00.000Z');
  const s = step(p.platformId, transferLegs(a, b, 10_001n), {
    moves: [touch(a, marker)],
    writes: eventWrites(p.platformId, [{ type: 'TEST', data: { note: 'overdraft' } }]),
  });
  const err = await runStep(s, db()).catch((e) => e);
  expect(err).toBeInstanceOf(InsufficientFunds);
  expect((err as InsufficientFunds).code).toBe('INSUFFICIENT_FUNDS');
  expect((err as InsufficientFunds).ledgerAccountId).toBe(bucketAccount(a, 'AVAILABLE'));
  expect(await transfersOf(s.posting!.transfer.id)).toBe(0);
  expect(await db().event.count({ where: { platformId: p.platformId, type: 'TEST' } })).toBe(0);
  expect((await accountsRepo.byIds([a], db()))[0].updatedAt).not.toEqual(marker); // the move was undone too
  expect(await balanceOf(p, a)).toEqual({ available: 10_000n, total: 10_000n });
  await expectLedgerBalanced(p.platformId);
});

it('writes nothing when a required move no longer matches (the step ran already)', async () => {
  const { p, a, b } = await setup();
  const marker = new Date('2031-01-01T00:00:00.000Z');
  const make = () => step(p.platformId, transferLegs(a, b, 1_000n), { moves: [touch(a, marker)] });
  const first = make();
  const second = make();
  expect(await runStep(first, db())).toBe(true);
  expect(await runStep(second, db())).toBe(false);
  expect(await transfersOf(second.posting!.transfer.id)).toBe(0);
  expect(await balanceOf(p, a)).toEqual({ available: 9_000n, total: 9_000n });
});

it('undoes a move that matched when another required move did not', async () => {
  const { p, a, b } = await setup();
  const marker = new Date('2032-01-01T00:00:00.000Z');
  await runStep(step(p.platformId, [], { moves: [touch(b, marker)] }), db());
  const s = step(p.platformId, transferLegs(a, b, 1_000n), {
    moves: [touch(a, marker), touch(b, marker)],
  });
  expect(await runStep(s, db())).toBe(false);
  expect((await accountsRepo.byIds([a], db()))[0].updatedAt).not.toEqual(marker);
  expect(await balanceOf(p, a)).toEqual({ available: 10_000n, total: 10_000n });
});

it('opens a system account on first use, allowed to go negative', async () => {
  const { p, a } = await setup();
  const world = systemAccount(p.platformId, 'WORLD:TEST_RAIL', 'USD');
  expect(await db().ledgerAccount.count({ where: { id: world } })).toBe(0);
  const legs = [
    { account: world, currency: 'USD', amount: -700n },
    { account: bucketAccount(a, 'AVAILABLE'), currency: 'USD', amount: 700n },
  ];
  expect(await runStep(step(p.platformId, legs), db())).toBe(true);
  const opened = await db().ledgerAccount.findUniqueOrThrow({ where: { id: world } });
  expect(opened).toMatchObject({
    platformId: p.platformId,
    currency: 'USD',
    bucket: 'SYSTEM',
    allowNegative: true,
    balance: -700n,
  });
  await expectLedgerBalanced(p.platformId);
});

it('inside a transaction: a stale step lets the transaction go on; an overdraft rolls it back', async () => {
  const { p, a, b } = await setup();
  const marker = new Date('2033-01-01T00:00:00.000Z');
  await runStep(step(p.platformId, [], { moves: [touch(a, marker)] }), db());
  const stale = step(p.platformId, transferLegs(a, b, 1_000n), {
    moves: [touch(a, marker)],
  });
  const applied = step(p.platformId, transferLegs(a, b, 2_000n));
  const result = await transaction(async (tx) => [await runStep(stale, tx), await runStep(applied, tx)]);
  expect(result).toEqual([false, true]);
  expect(await balanceOf(p, a)).toEqual({ available: 8_000n, total: 8_000n });

  const ok = step(p.platformId, transferLegs(a, b, 500n));
  const overdraft = step(p.platformId, transferLegs(a, b, 1_000_000n));
  const err = await transaction(async (tx) => {
    await runStep(ok, tx);
    await runStep(overdraft, tx);
  }).catch((e) => e);
  expect(err).toBeInstanceOf(InsufficientFunds);
  expect(await transfersOf(ok.posting!.transfer.id)).toBe(0);
  expect(await balanceOf(p, a)).toEqual({ available: 8_000n, total: 8_000n });
  await expectLedgerBalanced(p.platformId);
});

it('runs crossing steps concurrently without deadlock or lost updates', async () => {
  const { p, a, b } = await setup();
  await fund(p, b, 10_000n);
  const steps = Array.from({ length: 40 }, (_, i) =>
    i % 2 ? step(p.platformId, transferLegs(a, b, 100n)) : step(p.platformId, transferLegs(b, a, 60n)),
  );
  const results = await Promise.all(steps.map((s) => runStep(s, db())));
  expect(results.every(Boolean)).toBe(true);
  // 20 x 100 from a to b, 20 x 60 back.
  expect(await balanceOf(p, a)).toEqual({ available: 10_000n - 2_000n + 1_200n, total: 9_200n });
  expect(await balanceOf(p, b)).toEqual({ available: 10_000n + 2_000n - 1_200n, total: 10_800n });
  await expectLedgerBalanced(p.platformId);
});

it('writes a batch of steps as one; a stale or overdrawing member leaves the others to be written alone', async () => {
  const { p, a, b } = await setup();
  // A clean batch: both move, in one statement.
  expect(
    await runSteps([step(p.platformId, transferLegs(a, b, 100n)), step(p.platformId, transferLegs(b, a, 40n))]),
  ).toEqual([true, true]);
  expect(await balanceOf(p, a)).toEqual({ available: 9_940n, total: 9_940n });
  // A stale member and an overdrawing one: the batch falls apart into single steps.
  const marker = new Date('2034-01-01T00:00:00.000Z');
  await runStep(step(p.platformId, [], { moves: [touch(a, marker)] }), db());
  const fine = step(p.platformId, transferLegs(a, b, 500n));
  const stale = step(p.platformId, transferLegs(a, b, 1n), { moves: [touch(a, marker)] });
  const overdraft = step(p.platformId, transferLegs(b, a, 1_000_000n));
  const results = await runSteps([fine, stale, overdraft]);
  expect(results[0]).toBe(true);
  expect(results[1]).toBe(false);
  expect(results[2]).toBeInstanceOf(InsufficientFunds);
  expect(await transfersOf(fine.posting!.transfer.id)).toBe(1);
  expect(await transfersOf(stale.posting!.transfer.id)).toBe(0);
  expect(await balanceOf(p, a)).toEqual({ available: 9_440n, total: 9_440n });
  await expectLedgerBalanced(p.platformId);
});
