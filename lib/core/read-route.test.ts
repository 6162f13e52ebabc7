import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isPlainRead } from './read-route';
import { ServerPool } from './server-pool';

// Plain reads on a PostgreSQL server take one pipelined connection (issue 24). What must hold:
// only statements that cannot wait on a row lock go there; reads answer while a write waits on a
// lock another session holds; a slow read holds up only what was already written behind it; and
// the pool's counts and end() include the extra connection.
describe('isPlainRead', () => {
  it.each([
    'SELECT 1',
    '  \n\tselect * FROM "Customer" WHERE "id" = $1',
    '-- a comment\n/* another */ SELECT 1',
    'SELECT "public"."Customer"."id" FROM "public"."Customer" WHERE ("public"."Customer"."id" = $1 AND 1=1) LIMIT $2 OFFSET $3',
    'SELECT count(*) AS n, coalesce(sum("amount"), 0)::numeric(20,2) AS s FROM "T" WHERE "id" IN ($1, $2)',
    'SELECT EXISTS (SELECT 1 FROM "T" WHERE "a" = ANY($1::text[])) AS e',
    'SELECT "forUpdate", "updatedAt" FROM "T"',
  ])('a plain read: %s', (sql) => expect(isPlainRead(sql)).toBe(true));

  it.each([
    'SELECT * FROM "T" WHERE "id" = $1 FOR UPDATE',
    'select * from t for  share',
    'SELECT * FROM "T" FOR NO KEY UPDATE SKIP LOCKED',
    'SELECT * FROM "T" for key share',
    'SELECT * FROM (SELECT * FROM "T" FOR UPDATE) x',
    'INSERT INTO "T" ("a") VALUES ($1)',
    'UPDATE "T" SET "a" = 1',
    'DELETE FROM "T"',
    'WITH u AS (UPDATE "T" SET "a" = 1 RETURNING *) SELECT * FROM u',
    'WITH x AS (SELECT 1) SELECT * FROM x',
    'SELECT * FROM corridor_apply_deltas($1, $2, $3, $4)',
    'SELECT pg_advisory_lock(1, 2)',
    "SELECT nextval('s')",
    "SELECT set_config('statement_timeout', '5', false)",
    'SELECT pool_fail_first_1($1) AS v',
    'SELECT "my fn"(1)',
    'SELECT 1; UPDATE "T" SET "a" = 1',
    'SELECT * INTO t2 FROM t',
    'SELECT 1 /* hidden */ FOR UPDATE',
    '-- SELECT\nUPDATE "T" SET "a" = 1',
    'selected',
    'SHOW statement_timeout',
    'VALUES (1)',
  ])('not a plain read: %s', (sql) => expect(isPlainRead(sql)).toBe(false));
});

const embedded = inject('embedded');
const test = it.skipIf(embedded);
const table = `read_route_${process.pid}`;
const app = `read_route_${process.pid}`;
const url = inject('databaseUrl');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const timed = async <T>(work: Promise<T>) => {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started, at: performance.now() };
};
let pool: ServerPool;
let other: pg.Client;

beforeAll(async () => {
  if (embedded) return;
  const config = { connectionString: url, application_name: app, max: 3, timeoutMs: 3_000 };
  pool = new ServerPool({ ...config, pipelinedReads: { maxAgeMs: 20, maxInFlight: 8 } });
  other = new pg.Client({ connectionString: url });
  await other.connect();
  await other.query(`CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL)`);
  await other.query(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
});
afterAll(async () => {
  if (embedded) return;
  await other.query(`DROP TABLE IF EXISTS ${table}`);
  await other.end();
  await pool.end().catch(() => undefined); // ended by the last test already
});

const reads = () => pool.reads!.count;
const pointRead = () => pool.query(`SELECT v FROM ${table} WHERE id = $1`, [2]);

test('plain reads answer while a write waits on a row lock another session holds', async () => {
  await other.query('BEGIN');
  await other.query(`SELECT * FROM ${table} WHERE id = 1 FOR UPDATE`);
  const blocked = timed(pool.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`));
  await sleep(200);
  const before = reads();
  const five = await Promise.all(Array.from({ length: 5 }, () => timed(pointRead())));
  expect(reads() - before).toBe(5); // on the pipelined connection
  for (const r of five) {
    expect(r.ms).toBeLessThan(1_000);
    expect(r.value.rows).toEqual([{ v: 0 }]);
  }
  await other.query('ROLLBACK');
  expect((await blocked).value.rowCount).toBe(1);
  for (const r of five) expect(r.at).toBeLessThan((await blocked).at);
});

test('reads sent once a slow read is past the threshold go to the server pool and answer first', async () => {
  const before = reads();
  const slow = timed(pool.query('SELECT pg_sleep(0.6)::text AS slept'));
  expect(reads() - before).toBe(1);
  await sleep(60);
  const five = await Promise.all(Array.from({ length: 5 }, () => timed(pointRead())));
  expect(reads() - before).toBe(1); // none behind the slow one
  const slept = await slow;
  for (const r of five) {
    expect(r.ms).toBeLessThan(500);
    expect(r.at).toBeLessThan(slept.at);
  }
  // Once the slow read has answered, reads take the pipelined connection again.
  await pointRead();
  expect(reads() - before).toBe(2);
});

test('takes at most maxInFlight unanswered reads at once', async () => {
  const before = reads();
  await Promise.all(Array.from({ length: 20 }, () => pointRead()));
  expect(reads() - before).toBe(8);
});

test('counts the pipelined connection with the pool, and end() closes it', async () => {
  const held = await pool.connect();
  await pointRead();
  expect(pool.totalCount).toBeGreaterThanOrEqual(2);
  expect(pool.idleCount).toBe(pool.totalCount - 1);
  held.release();
  const open = async () =>
    Number(
      (await other.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [app])).rows[0]
        .n,
    );
  expect(await open()).toBeGreaterThanOrEqual(2);
  await pool.end();
  for (let i = 0; i < 50 && (await open()) > 0; i++) await sleep(20);
  expect(await open()).toBe(0);
});
