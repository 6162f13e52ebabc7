import { beforeAll, expect, it } from 'vitest';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import { advance, fund } from '@/tests/support/money';
import { addSeconds, nowFor } from '@/lib/core/clock';
import { db, transaction } from '@/lib/core/db';
import * as platforms from '@/lib/platform/repository';
import { enqueue, registerJob, runDueJobs } from '@/lib/jobs/queue';
import { POLL_JOB } from '@/lib/stablecoins/operations';
import { stablecoinProvider } from '@/lib/stablecoins/provider';
import { getOp, keyed, linkAccount, platformAccount, registerCoin, sparkWallet } from '@/lib/stablecoins/testing';
import { freezeClock } from './clock';

// The sandbox clock. Frozen (tests), a platform's time moves only when advanced, so a delay's
// boundary is exact however slow the machine. POST /sandbox/clock/advance answers only once what
// its new time made due has run: chains of jobs that schedule due jobs, and jobs the server's
// worker had already taken up when the clock moved.
let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
  await freezeClock(p.platformId);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const customer = async (q: TestPlatform, fullName: string) => {
  const res = await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName, currencies: ['USD'] });
  expect(res.status, res.text).toBe(201);
  return res.body as { createdAt: string };
};

it('a frozen clock stands still between advances and moves exactly as far as advanced', async () => {
  const q = await newPlatform();
  const frozen = await freezeClock(q.platformId);
  expect(frozen.frozen).toBe(true);
  const start = Date.parse(frozen.now);
  expect((await customer(q, 'First Frozen')).createdAt).toBe(frozen.now);
  await sleep(1100);
  expect((await customer(q, 'Second Frozen')).createdAt).toBe(frozen.now);
  const moved = await advance(q, 359);
  expect(moved).toMatchObject({ frozen: true, offsetSeconds: 359, jobsPending: 0 });
  expect(Date.parse(moved.now) - start).toBe(359_000);
  expect((await customer(q, 'Third Frozen')).createdAt).toBe(moved.now);
  // Released, it runs on from where it stood (not from where the wall clock would have put it).
  const released = await freezeClock(q.platformId, false);
  expect(released.frozen).toBe(false);
  const at = Date.parse((await customer(q, 'Running Again')).createdAt);
  expect(at).toBeGreaterThanOrEqual(start + 359_000);
  expect(at).toBeLessThan(start + 359_000 + 5_000);
  // Another platform's clock was never frozen.
  const other = await newPlatform();
  expect(Math.abs(Date.parse((await customer(other, 'Wall Time')).createdAt) - Date.now())).toBeLessThan(5_000);
});

let chained = 0;
registerJob('test.sandbox-clock.chain', async (payload, job) => {
  chained++;
  const { left } = payload as { left: number };
  if (left > 0)
    await transaction((tx) =>
      enqueue(tx, { platformId: job.platformId, kind: 'test.sandbox-clock.chain', payload: { left: left - 1 } }),
    );
});

/** A chain of 25 jobs, each enqueueing the next due at once, its first due in a minute. */
async function startChain(q: TestPlatform) {
  chained = 0;
  const platformNow = nowFor((await platforms.findById(q.platformId, db()))!);
  await transaction((tx) =>
    enqueue(tx, {
      platformId: q.platformId,
      kind: 'test.sandbox-clock.chain',
      payload: { left: 24 },
      runAt: addSeconds(platformNow, 60),
    }),
  );
}

it('runs a chain of jobs each scheduling the next, already due, to its end before answering', async () => {
  await startChain(p);
  expect((await advance(p, 59)).jobsRun).toBe(0);
  expect(chained).toBe(0);
  const res = await advance(p, 1);
  expect(res).toMatchObject({ jobsRun: 25, jobsPending: 0 });
  expect(chained).toBe(25);
});

it('runs such a chain to its end on a clock that is not frozen too (each next job due at its own now)', async () => {
  const q = await newPlatform();
  await startChain(q);
  expect(await advance(q, 61)).toMatchObject({ frozen: false, jobsRun: 25, jobsPending: 0 });
  expect(chained).toBe(25);
});

it('waits for a due stablecoin poll the worker holds, and the poll that one schedules (issue 22)', async () => {
  await linkAccount(p);
  const coin = await registerCoin(p, 'ACME');
  const wallet = await sparkWallet(p);
  const own = await platformAccount(p, 'USD');
  await fund(p, own, 5000);
  const body = {
    amount: '10000000',
    fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: own },
    destination: { accountId: wallet },
  };
  const op = await p.api.post(`/stablecoins/${coin.id}/mints`, body, keyed());
  expect(op.status, op.text).toBe(201);
  expect(op.body.status).toBe('PENDING_PROVIDER');

  // The provider answers the worker's poll only when let go: the worker holds the job meanwhile.
  const real = stablecoinProvider.get();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  stablecoinProvider.set(
    new Proxy(real, {
      get: (target, key) =>
        key === 'operationStatus'
          ? async (...args: Parameters<typeof real.operationStatus>) => {
              const report = await real.operationStatus(...args);
              await gate;
              return report;
            }
          : Reflect.get(target, key),
    }),
  );
  try {
    // The poll comes due (the provider pulls the funds at 5 s) and the worker takes it up.
    await platforms.advanceClock(p.platformId, 5_000n);
    const worker = runDueJobs({ platformId: p.platformId });
    const running = () => db().job.count({ where: { platformId: p.platformId, kind: POLL_JOB, state: 'RUNNING' } });
    for (let i = 0; i < 200 && (await running()) === 0; i++) await sleep(25);
    expect(await running()).toBe(1);

    let answered = false;
    const advanced = advance(p, 10).then((res) => ((answered = true), res));
    await sleep(500);
    expect(answered).toBe(false);
    expect((await getOp(p, op.body.id)).status).toBe('PENDING_PROVIDER');

    // Let go: the worker's poll finds the funds received (PROCESSING) and schedules the next poll
    // 5 s on (due at 10 s, before the advance's 15 s), which the advance must run too.
    release();
    await worker;
    const res = (await advanced) as unknown as { jobsRun: number; jobsPending: number };
    expect(res.jobsPending).toBe(0);
    expect(res.jobsRun).toBeGreaterThanOrEqual(1);
    expect(await getOp(p, op.body.id)).toMatchObject({ status: 'COMPLETED', providerStatus: 'complete' });
  } finally {
    stablecoinProvider.set(real);
    release();
  }
  await expectLedgerBalanced(p.platformId);
});

it('an advance repeated under its Idempotency-Key moves the clock once and answers alike', async () => {
  const q = await newPlatform();
  const start = Date.parse((await freezeClock(q.platformId)).now);
  const headers = { 'idempotency-key': `advance-${q.platformId}` };
  const first = await q.api.post('/sandbox/clock/advance', { seconds: 600 }, { headers });
  expect(first.status, first.text).toBe(200);
  const again = await q.api.post('/sandbox/clock/advance', { seconds: 600 }, { headers });
  expect(again.status, again.text).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.text).toBe(first.text);
  expect(Date.parse((first.body as { now: string }).now) - start).toBe(600_000);
  // The clock stands where the one advance put it; a new key is a new advance.
  expect((await customer(q, 'After One Advance')).createdAt).toBe((first.body as { now: string }).now);
  const changed = await q.api.post('/sandbox/clock/advance', { seconds: 60 }, { headers });
  expect(changed.status, changed.text).toBe(400);
  const next = await q.api.post(
    '/sandbox/clock/advance',
    { seconds: 60 },
    { headers: { 'idempotency-key': `next-${q.platformId}` } },
  );
  expect(next.status, next.text).toBe(200);
  expect(Date.parse((next.body as { now: string }).now) - start).toBe(660_000);
});
