import { afterEach, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { runDueJobs } from '@/lib/jobs/queue';
import { readFigures, SCRIPT_HELD_REASON } from '@/lib/ops/metrics-probe';
import { submitToRail } from '@/lib/payments/rail-engine';
import { railCounts, railViewOf } from '@/lib/payments/rail-view';
import { NO_RAIL_CONNECTED } from '@/lib/payments/rail';
import { SCRIPT_NOT_APPLIED } from '@/lib/payments/script-hold';
import { historyOf } from '@/lib/staff/audit';
import * as staffOps from '@/lib/staff/refund-operations';
import type { StaffActor } from '@/lib/staff/roles';
import * as staff from '@/lib/staff/service';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { switchMode } from '@/tests/support/mode';
import { balanceOf, customerWithAccounts, externalAccount, fund, txn, type Holder } from '@/tests/support/money';

// Production never pretends: a /transfer-out or /transfer-in written while the database served a
// sandbox instance carries its account number's script (004 rejected by the bank, 005 pending
// then fails, any other suffix success). A production instance's 'transfer.settle' job applies
// none of them: the transfer stays PROCESSING, its money held, with the reason, and shows as held
// in the console's rail view, its overview counter and the waiting metric. Sandbox: transfer-out
// and transfer-in tests.
const SCRIPTS = [
  ['004', 'BANK_REJECTED'],
  ['005', 'PENDING_THEN_FAILS'],
  ['321', 'SUCCESS'],
] as const;

let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  switchMode('sandbox');
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Prod Transfer', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000);
});
afterEach(async () => {
  switchMode('sandbox');
  await expectLedgerBalanced(p.platformId);
});

// One external account per suffix, both directions.
const externals = new Map<string, string>();

/** Starts a transfer in the sandbox (the instance that wrote the script); its id. */
async function start(direction: 'out' | 'in', suffix: string): Promise<string> {
  if (!externals.has(suffix)) externals.set(suffix, await externalAccount(p, h.customerId, 'USD', suffix));
  const external = externals.get(suffix)!;
  const res =
    direction === 'out'
      ? await p.api.post('/transfer-out', {
          source: { accountId: h.accounts.USD },
          destination: { accountId: external },
          amount: 1000,
        })
      : await p.api.post('/transfer-in', {
          source: { accountId: external },
          destination: { accountId: h.accounts.USD },
          amount: 1000,
        });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('PROCESSING');
  return res.body.id;
}

/** Makes the platform's transfer settlement jobs due now and runs the worker once, as the current instance. */
async function runSettlementNow() {
  await db().job.updateMany({
    where: { platformId: p.platformId, kind: 'transfer.settle', state: 'PENDING' },
    data: { runAt: new Date(0) },
  });
  await runDueJobs({ platformId: p.platformId });
}

const postingsOf = (ids: string[]) => db().ledgerTransfer.count({ where: { transactionId: { in: ids } } });

async function startAll(): Promise<{ id: string; script: string }[]> {
  const started = [];
  for (const direction of ['out', 'in'] as const)
    for (const [suffix, script] of SCRIPTS) started.push({ id: await start(direction, suffix), script });
  for (const s of started)
    expect((await db().transaction.findUniqueOrThrow({ where: { id: s.id } })).scenario).toBe(s.script);
  return started;
}

let held: string[] = [];

it('production: no scripted outcome is applied to a transfer; each stays PROCESSING, money held, with the reason', async () => {
  const started = await startAll();
  held = started.map((s) => s.id);
  const before = await balanceOf(p, h.accounts.USD);
  const postings = await postingsOf(held);

  switchMode('production');
  await runSettlementNow();
  for (const id of held) {
    expect((await txn(p, id)).status, id).toBe('PROCESSING');
    const row = await db().transaction.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ railStatus: 'WAITING', railNote: SCRIPT_NOT_APPLIED });
  }
  expect(await postingsOf(held)).toBe(postings);
  expect(await balanceOf(p, h.accounts.USD)).toEqual(before);

  // Again, and a stray rail submission: nothing moves, nothing is handed to the rail.
  await runSettlementNow();
  for (const id of held) await submitToRail(id);
  for (const id of held) {
    expect((await txn(p, id)).status).toBe('PROCESSING');
    const row = await db().transaction.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ railStatus: 'WAITING', railNote: SCRIPT_NOT_APPLIED });
  }
  expect(await postingsOf(held)).toBe(postings);
  expect(await db().job.count({ where: { platformId: p.platformId, kind: 'payment.submit' } })).toBe(0);
});

it('held transfers show in the console rail view, its waiting counter and the waiting metric by reason', async () => {
  expect(held).toHaveLength(6);
  for (const id of held) {
    const view = await railViewOf(p.platformId, id);
    expect(view, id).toMatchObject({
      state: `Held: ${SCRIPT_NOT_APPLIED}`,
      note: null,
      needsStaff: true,
      references: [],
      actions: ['HAND_TO_RAIL'],
    });
  }
  expect((await railCounts(p.platformId)).waiting).toBe(held.length);
  const figures = await readFigures(db(), undefined);
  const counted = figures.paymentsWaitingForRail.find((w) => w.reason === SCRIPT_HELD_REASON);
  // Other test files may hold payments of their own on the same database: at least these.
  expect(counted?.count ?? 0).toBeGreaterThanOrEqual(held.length);
});

it('sandbox: the same scripts still settle', async () => {
  const started = await startAll();
  await runSettlementNow();
  const expected: Record<string, string> = {
    BANK_REJECTED: 'FAILED',
    PENDING_THEN_FAILS: 'FAILED',
    SUCCESS: 'COMPLETED',
  };
  for (const s of started) {
    expect((await txn(p, s.id)).status, s.script).toBe(expected[s.script]);
    expect((await db().transaction.findUniqueOrThrow({ where: { id: s.id } })).railNote).toBeNull();
  }
  expect((await railCounts(p.platformId)).waiting).toBe(held.length);
});

async function operator(): Promise<StaffActor> {
  const email = `op-${process.pid}-${Date.now()}@hold.example`;
  await staff.createUser(p.platformId, { email, role: 'operator', password: 'a-long-enough-password' }, db());
  return (await staff.actorOf((await staff.signIn(email, 'a-long-enough-password')).sessionId)) as StaffActor;
}

const submitJobsOf = async (id: string) =>
  db().job.count({ where: { kind: 'payment.submit', payload: { path: ['transactionId'], equals: id } } });

it('staff hand a held transfer to the rail once; with no rail connected it then waits visibly', async () => {
  const op = await operator();
  switchMode('production');
  // A payment that is not held is refused, and nothing is queued for it.
  const settled = (
    await db().transaction.findFirstOrThrow({ where: { platformId: p.platformId, status: 'COMPLETED' } })
  ).id;
  await expect(staffOps.handToRail(op, settled)).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
  expect(await submitJobsOf(settled)).toBe(0);

  const postings = await postingsOf(held);
  for (const id of held) {
    // A double click, or two staff at once: handed over once, the other refused.
    const both = await Promise.allSettled([1, 2].map(() => staffOps.handToRail(op, id)));
    expect(both.map((r) => r.status).sort(), id).toEqual(['fulfilled', 'rejected']);
    expect(await submitJobsOf(id)).toBe(1);
    const row = await db().transaction.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'PROCESSING', scenario: 'WAITING_FOR_RAIL', railStatus: null, railNote: null });
    expect((await historyOf(p.platformId, [id]))[0]).toMatchObject({
      action: 'payment.hand_to_rail',
      details: { scenario: expect.stringMatching(/^(BANK_REJECTED|PENDING_THEN_FAILS|SUCCESS)$/), currency: 'USD' },
    });
  }
  await expect(staffOps.handToRail(op, held[0])).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });

  // The rail engine takes them up: none is connected, so each waits with that reason, money held.
  await runDueJobs({ platformId: p.platformId });
  for (const id of held) {
    expect((await txn(p, id)).status).toBe('PROCESSING');
    expect(await db().transaction.findUniqueOrThrow({ where: { id } })).toMatchObject({
      railStatus: 'WAITING',
      railNote: NO_RAIL_CONNECTED,
    });
    expect((await railViewOf(p.platformId, id))?.state).toMatch(/^Waiting: no payment rail connected/);
  }
  expect(await postingsOf(held)).toBe(postings);
  expect((await railCounts(p.platformId)).waiting).toBe(held.length);
});
