import { beforeAll, expect, it } from 'vitest';
import { currentCorridor } from '@/lib/core/context';
import { db, Prisma } from '@/lib/core/db';
import { BUSY_FACTOR, pacedPass, type Pace, type PassReport } from '@/lib/core/housekeeping';
import { pruneEventsBatch } from '@/lib/webhooks/retention';
import { foldRunningTotals, runningTotals } from '@/lib/core/running-totals';
import { customerWithAccounts, fund } from './support/money';
import { newPlatform, type TestPlatform } from './support/api';

// Issue 28 point 9: housekeeping never starves requests. A backlog of settled events far past the
// retention (HOUSEKEEPING_TEST_ROWS, 200,000 by default; the million of the issue, and the request
// p99 against an idle database, are `npm run bench -- --housekeeping`'s) is pruned by the worker's
// paced passes while requests run. What is checked is the pacing itself, never a timing: every
// batch holds at most the pace's rows, each pass ends within its budget plus the batch under way,
// the backlog takes several passes (each resuming where the last stopped), requests are answered
// between batches, nothing still wanted is removed, and the metrics count the rows.
const ROWS = Number(process.env.HOUSEKEEPING_TEST_ROWS || 200_000);
const DAY = 24 * 3600_000;
const pace: Pace = { batch: 2_000, budgetMs: 1_500, pauseRatio: 1 };

let p: TestPlatform;
let customerId: string;
const now = new Date();

beforeAll(async () => {
  p = await newPlatform();
  const created = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `hk-${Date.now()}`,
    fullName: 'Hana Housekeeping',
  });
  expect(created.status, created.text).toBe(201);
  customerId = created.body.id;
  // The backlog: settled events 100 days old (past the 90-day retention), in a few statements;
  // and some that must stay: settled but recent.
  const old = new Date(now.getTime() - 100 * DAY);
  const recent = new Date(now.getTime() - 10 * DAY);
  const insert = (n: number, status: string, at: Date, tag: string) =>
    db().$executeRaw(Prisma.sql`
      INSERT INTO "Event" ("id", "platformId", "type", "payload", "createdAt", "status")
      SELECT 'Webhook:hk-' || ${tag} || '-' || g, ${p.platformId}, 'TEST', '{}', ${at}::timestamp(3), ${status}
      FROM generate_series(1, ${n}::int) g`);
  for (let done = 0; done < ROWS; done += 50_000)
    await insert(Math.min(50_000, ROWS - done), done % 100_000 ? 'FAILED' : 'DELIVERED', old, `old${done}`);
  await insert(10, 'DELIVERED', recent, 'recent');
}, 600_000);

const sample = async (name: string, labels: string) => {
  const text = await currentCorridor().metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
};

it('prunes a large backlog in paced batches within each pass budget, answering requests between batches', async () => {
  const rowsBefore = await sample('corridor_housekeeping_rows_total', 'task="retention.events"');
  // Requests all along: one after the other, each answer's time recorded.
  const answered: number[] = [];
  let pruning = true;
  const requests = (async () => {
    while (pruning) {
      const r = await p.api.get(`/customers/${customerId}`);
      expect(r.status).toBe(200);
      answered.push(performance.now());
    }
  })();

  // The worker's passes, one after the other as its housekeeping runs them (without its pause of
  // a few seconds between passes, to keep the test short).
  const passes: PassReport[] = [];
  const batches: { pass: number; start: number; end: number; rows: number }[] = [];
  try {
    for (let i = 0; i < 1_000; i++) {
      const pass = await pacedPass('retention.events', (limit) => pruneEventsBatch(now, limit, 90), pace, {
        onBatch: (rows, ms) => batches.push({ pass: i, start: performance.now() - ms, end: performance.now(), rows }),
      });
      passes.push(pass);
      if (pass.complete) break;
    }
  } finally {
    pruning = false;
    await requests;
  }

  // Every batch within the pace's size; only the last of a pass may be short (the pass ends there).
  expect(batches.every((b) => b.rows <= pace.batch)).toBe(true);
  for (const pass of passes) expect(pass.batches.slice(0, -1).every((n) => n === pace.batch)).toBe(true);
  // The backlog took several passes, every one but the last stopped by its budget, and no pass ran
  // past its budget by more than the batch under way when it ran out.
  expect(passes.length).toBeGreaterThan(1);
  expect(passes.slice(0, -1).every((pass) => !pass.complete)).toBe(true);
  expect(passes.at(-1)!.complete).toBe(true);
  const longestBatch = Math.max(...batches.map((b) => b.end - b.start));
  for (const pass of passes) expect(pass.ms).toBeLessThanOrEqual(pace.budgetMs + longestBatch + 50);
  // (On PostgreSQL other test files' housekeeping may remove some of these rows at the same moment:
  // each row goes once, whoever removes it.)
  const pruned = passes.reduce((n, pass) => n + pass.rows, 0);
  expect(pruned).toBeGreaterThan(ROWS / 2);

  // Requests were answered between batches, not only before or after the pruning: in the pauses
  // of a pass (its last batch is followed by none, and here the next pass starts at once), nearly
  // every one (a request may be slower than a pause on a busy machine).
  const pauses = batches.slice(1).flatMap((b, i) => (b.pass === batches[i].pass ? [[batches[i].end, b.start]] : []));
  const served = pauses.filter(([from, to]) => answered.some((t) => t >= from && t <= to)).length;
  expect(pauses.length).toBeGreaterThan(0);
  expect(served).toBeGreaterThanOrEqual(Math.floor(pauses.length * 0.8));

  // Every old settled event went, and nothing still wanted: the recent ones are all there (the
  // PENDING rule has its own test, lib/webhooks/retention.test.ts).
  const left = await db().$queryRaw<{ tag: string; n: number }[]>(Prisma.sql`
    SELECT split_part("id", '-', 2) AS tag, count(*)::int AS n FROM "Event"
    WHERE "platformId" = ${p.platformId} AND "id" LIKE 'Webhook:hk-%' AND "status" <> 'PENDING' GROUP BY 1`);
  expect(left).toEqual([{ tag: 'recent', n: 10 }]);
  // And the metrics counted the rows and the passes.
  expect((await sample('corridor_housekeeping_rows_total', 'task="retention.events"')) - rowsBefore).toBe(pruned);
  expect(await sample('corridor_housekeeping_backlog', 'task="retention.events"')).toBe(0);
  expect(
    await sample('corridor_housekeeping_passes_total', 'task="retention.events",outcome="budget"'),
  ).toBeGreaterThan(0);
}, 600_000);

it('pauses longer after a batch while requests wait for a connection, and stops when the worker stops', async () => {
  // The pause after each batch is its time times the ratio: idle, x1; while requests wait, x4.
  for (const busy of [false, true]) {
    const took: number[] = [];
    const pauses: number[] = [];
    let left = 5;
    await pacedPass(
      'test.pacing',
      async (limit) => (left-- > 0 ? limit : 0),
      { batch: 10, budgetMs: 60_000, pauseRatio: 2 },
      { busy: () => busy, sleep: async (ms) => void pauses.push(ms), onBatch: (_rows, ms) => took.push(ms) },
    );
    expect(pauses).toEqual(took.slice(0, 5).map((ms) => ms * 2 * (busy ? BUSY_FACTOR : 1)));
  }

  // Stopping: the pass ends after the batch under way.
  let left = 100;
  let stopping = false;
  const report = await pacedPass(
    'test.pacing',
    async (limit) => {
      left--;
      if (left === 97) stopping = true;
      return limit;
    },
    { batch: 10, budgetMs: 60_000, pauseRatio: 0 },
    { stopping: () => stopping },
  );
  expect(report.batches).toEqual([10, 10, 10]);
  expect(report.complete).toBe(false);
});

it('folds the running totals in batches of the pace, and the totals read the same before and after', async () => {
  const q = await newPlatform();
  const h = await customerWithAccounts(q, 'Fola Fold', ['USD']);
  for (let i = 0; i < 6; i++) await fund(q, h.accounts.USD, 1_000 + i);
  const changes = () => db().runningTotalChange.count({ where: { platformId: q.platformId } });
  const before = await runningTotals(q.platformId, '', '\uffff');
  const waiting = await changes();
  expect(waiting).toBeGreaterThan(4);
  const pass = await pacedPass('runningTotals', (limit) => foldRunningTotals(q.platformId, limit), {
    batch: 2,
    budgetMs: 60_000,
    pauseRatio: 0,
  });
  expect(pass.batches.every((n) => n <= 2)).toBe(true);
  expect(pass.batches.length).toBeGreaterThan(2);
  expect(pass.complete).toBe(true);
  expect(await changes()).toBe(0);
  expect(await runningTotals(q.platformId, '', '\uffff')).toEqual(before);
});
