import { afterAll, beforeAll, expect, it } from 'vitest';
import { currentCorridor, type Corridor } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import { runDueJobs } from '@/lib/jobs/queue';
import type { RailInstruction } from '@/lib/payments/rail';
import { PULL_NOT_SUPPORTED } from '@/lib/payments/rail-engine';
import { paymentRail, productionPaymentRail } from '@/lib/payments/scenarios';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { switchMode } from '@/tests/support/mode';
import { customerWithAccounts, externalAccount, fund, type Holder } from '@/tests/support/money';

// A quote funded by pulling from the payer's bank, in a production instance with a rail that
// accepts everything: the engine does not collect by pull yet, so the payout must wait with its
// reason and nothing may reach the rail — paying out first would send money never collected.
const sent: RailInstruction[] = [];
let p: TestPlatform;
let h: Holder;
let production: Corridor;

beforeAll(async () => {
  p = await newPlatform();
  h = await customerWithAccounts(p, 'Pull Payer', ['USD']);
  await fund(p, h.accounts.USD, 1_000_000);
  switchMode('production');
  production = currentCorridor();
  paymentRail.set(
    productionPaymentRail({
      describe: () => ({ party: 'payment rail', adapter: 'recording (test)', connected: true }),
      submit: async (i) => {
        sent.push(i);
        return { outcome: 'ACCEPTED' };
      },
    }),
  );
});
afterAll(() => expectLedgerBalanced(p.platformId));

it('is never paid out before the money is collected: it waits with the reason, nothing sent', async () => {
  const bank = await externalAccount(p, h.customerId, 'USD', '321');
  const dest = await externalAccount(p, h.customerId, 'EUR', '123');
  const q = await p.api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: bank },
    destination: { destinationType: 'ACCOUNT', accountId: dest },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 5_000,
  });
  expect(q.status, q.text).toBe(201);
  const ex = await p.api.post(`/quotes/${q.body.id}/execute`);
  expect(ex.status, ex.text).toBe(200);
  const id = q.body.transactionId as string;
  const run = (production as Corridor & { run?<R>(f: () => R): R }).run;
  await (run ? run(() => runDueJobs({ platformId: p.platformId })) : runDueJobs({ platformId: p.platformId }));
  const row = await db().transaction.findUniqueOrThrow({
    where: { id },
    select: { status: true, railStatus: true, railNote: true },
  });
  expect(row).toEqual({ status: 'PROCESSING', railStatus: 'WAITING', railNote: PULL_NOT_SUPPORTED });
  expect(sent).toEqual([]);
});
