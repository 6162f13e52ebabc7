import { afterEach, beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { runDueJobs } from '@/lib/jobs/queue';
import { railViewOf } from '@/lib/payments/rail-view';
import { SCRIPT_NOT_APPLIED } from '@/lib/payments/script-hold';
import { handHeldToRail } from '@/lib/payments/script-hold-ops';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { switchMode } from '@/tests/support/mode';
import { customerWithAccounts, fund, txn, type Holder } from '@/tests/support/money';

// Production never pretends (issue 25): the sandbox UMA counterparties ($success.usd@ and the
// rest) answer only in sandbox mode. A production instance refuses to look them up or quote them,
// and its settlement job never applies a scripted outcome — not even to a payment written while
// the same database served a sandbox instance. Sandbox behaviour: uma.test.ts.
const D = 'sandbox.uma.money';
const SANDBOX_COUNTERPARTIES = [
  `$success.usd@${D}`,
  `$success.eur@${D}`,
  `$success.mxn@${D}`,
  `$pending.long.usd@${D}`,
  `$fail.compliance.usd@${D}`,
];

let p: TestPlatform;
let h: Holder;
beforeAll(async () => {
  switchMode('sandbox');
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Uma Sender', ['USD']);
  await fund(p, h.accounts.USD, 5_000_000);
});
afterEach(async () => {
  switchMode('sandbox');
  await expectLedgerBalanced();
});

const lookup = (address: string) =>
  p.api.get(`/receiver/uma/${encodeURIComponent(address)}`, { query: { customerId: h.customerId } });

const quoteTo = (address: string, lookupId: string | undefined) =>
  p.api.post('/quotes', {
    lookupId,
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1000,
    senderCustomerInfo: { FULL_NAME: 'Uma Sender' },
  });

/** Makes the platform's settlement jobs due now and runs the worker once, as the current instance. */
async function runSettlementNow() {
  await db().job.updateMany({
    where: { platformId: p.platformId, kind: 'payment.settle', state: 'PENDING' },
    data: { runAt: new Date(0) },
  });
  await runDueJobs({ platformId: p.platformId });
}

it('production: a lookup of a sandbox counterparty is refused (UMA_NOT_FOUND), saying why', async () => {
  switchMode('production');
  for (const address of SANDBOX_COUNTERPARTIES) {
    const res = await lookup(address);
    expectError(res, 404, 'UMA_NOT_FOUND');
    expect(res.body.message).toMatch(/sandbox counterparty, which answers only in sandbox mode/);
  }
  // Not a prototype key either: `$constructor@` is nobody, in either mode.
  expectError(await lookup(`$constructor@${D}`), 404, 'UMA_NOT_FOUND');
  switchMode('sandbox');
  expectError(await lookup(`$constructor@${D}`), 404, 'UMA_NOT_FOUND');
});

it('production: a quote to a sandbox counterparty is refused, even on a lookup made in sandbox', async () => {
  const address = `$success.usd@${D}`;
  const sandboxLookup = await lookup(address);
  expect(sandboxLookup.status, sandboxLookup.text).toBe(200);
  switchMode('production');
  const refused = await quoteTo(address, sandboxLookup.body.lookupId);
  expectError(refused, 400, 'INVALID_RECEIVER');
  expect(refused.body.message).toMatch(/receives only in sandbox mode/);
  expectError(await quoteTo(address, undefined), 400, 'INVALID_INPUT');
  const quotes = await db().quote.count({ where: { platformId: p.platformId, executedAt: { not: null } } });
  expect(quotes).toBe(0);
});

it('production: settlement applies no scripted outcome; a sandbox-era payment waits with the reason', async () => {
  // Paid in sandbox (scenario SUCCESS stored, settlement job scheduled), then the database is
  // served by a production instance before the job runs.
  const address = `$success.usd@${D}`;
  const q = await quoteTo(address, (await lookup(address)).body.lookupId);
  expect(q.status, q.text).toBe(201);
  expect((await p.api.post(`/quotes/${q.body.id}/execute`)).status).toBe(200);
  expect((await txn(p, q.body.transactionId)).status).toBe('PROCESSING');

  switchMode('production');
  await runSettlementNow();
  expect((await txn(p, q.body.transactionId)).status).toBe('PROCESSING');
  const row = await db().transaction.findUniqueOrThrow({ where: { id: q.body.transactionId } });
  expect(row.railNote).toBe(SCRIPT_NOT_APPLIED);
  // Run again: still waiting, nothing more written.
  await runSettlementNow();
  expect((await txn(p, q.body.transactionId)).status).toBe('PROCESSING');
  // Held, shown so; no rail can pay a sandbox counterparty, so staff are offered no hand-over.
  const view = await railViewOf(p.platformId, q.body.transactionId);
  expect(view).toMatchObject({ state: `Held: ${SCRIPT_NOT_APPLIED}`, needsStaff: true, actions: [] });
  await expect(handHeldToRail(p.platformId, q.body.transactionId)).rejects.toMatchObject({
    code: 'INVALID_STATE_TRANSITION',
  });
});

it('production: a payment that never leaves the service (to an internal account) still settles', async () => {
  const receiver = await customerWithAccounts(p, 'Internal Receiver', ['USD']);
  switchMode('production');
  const q = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: receiver.accounts.USD },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1500,
  });
  expect(q.status, q.text).toBe(201);
  expect((await p.api.post(`/quotes/${q.body.id}/execute`)).status).toBe(200);
  await runSettlementNow();
  expect((await txn(p, q.body.transactionId)).status).toBe('COMPLETED');
});
