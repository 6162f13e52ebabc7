import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { PipelinedPool } from '@/lib/core/db-pool';

// The embedded database's pool pipelines statements over its one connection. What must hold:
// every statement gets its own answer, a failing one fails alone, and a transaction never has
// anyone else's statement between its BEGIN and its end. (Run on both databases: on PostgreSQL the
// pool's one connection is a session of its own, which asserts the same ordering.)
let pool: PipelinedPool;
const table = `pool_probe_${process.pid}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  pool = new PipelinedPool({
    connectionString: inject('databaseUrl'),
    size: 1,
    onConnect: async (c) => void (await c.query('DEALLOCATE ALL')),
  });
  await pool.query(`CREATE TABLE ${table} (v int NOT NULL)`);
});
afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
});

it('answers each of many concurrent statements with its own result, named statements included', async () => {
  const results = await Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      pool.query({ name: 'pool_probe_echo', text: 'SELECT $1::int AS v', values: [i] }),
    ),
  );
  expect(results.map((r) => r.rows[0].v)).toEqual(Array.from({ length: 300 }, (_, i) => i));
});

it('fails a failing statement alone: its neighbours in the pipeline still succeed', async () => {
  const settled = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => pool.query(i % 2 ? 'SELECT 1/0 AS v' : `SELECT ${i}::int AS v`)),
  );
  settled.forEach((s, i) => {
    if (i % 2) expect(s.status === 'rejected' && (s.reason as { code?: string }).code).toBe('22012');
    else expect(s.status === 'fulfilled' && s.value.rows[0].v).toBe(i);
  });
});

it('serves the callback form too', async () => {
  const v = await new Promise<number>((resolve, reject) => {
    pool.query('SELECT 7::int AS v', (err: Error | null, r: { rows: { v: number }[] }) =>
      err ? reject(err) : resolve(r.rows[0].v),
    );
  });
  expect(v).toBe(7);
});

it('keeps statements asked for during a transaction out of it, and runs them after it', async () => {
  await pool.query(`DELETE FROM ${table}`);
  const tx = await pool.connect();
  await tx.query('BEGIN');
  await tx.query(`INSERT INTO ${table} VALUES (1)`);
  let outsideDone = false;
  const outside = pool.query(`INSERT INTO ${table} VALUES (2)`).then(() => (outsideDone = true));
  await sleep(50);
  await tx.query(`INSERT INTO ${table} VALUES (3)`);
  expect(outsideDone).toBe(false); // still waiting: the transaction has the connection
  await tx.query('ROLLBACK');
  tx.release();
  await outside;
  // Rolled back: the transaction's rows. Kept: the row written outside it.
  expect((await pool.query(`SELECT v FROM ${table} ORDER BY v`)).rows.map((r: { v: number }) => r.v)).toEqual([2]);
});

it('starts a transaction only after every statement already sent has been answered', async () => {
  const order: string[] = [];
  const slow = pool.query('SELECT pg_sleep(0.2)').then(() => order.push('statement'));
  const tx = await pool.connect();
  order.push('transaction');
  tx.release();
  await slow;
  expect(order).toEqual(['statement', 'transaction']);
});

it('hands the connection to transactions one at a time, in arrival order', async () => {
  const order: number[] = [];
  await Promise.all(
    [1, 2, 3].map(async (n) => {
      const tx = await pool.connect();
      await tx.query('BEGIN');
      const { rows } = await tx.query('SELECT txid_current() AS id');
      await sleep(10);
      const again = await tx.query('SELECT txid_current() AS id');
      expect(again.rows[0].id).toBe(rows[0].id); // nobody else's BEGIN/COMMIT came between
      await tx.query('COMMIT');
      order.push(n);
      tx.release();
    }),
  );
  expect(order).toEqual([1, 2, 3]);
});

it('drops a connection released with an error, so an open transaction does not leak into the next statement', async () => {
  const tx = await pool.connect();
  await tx.query('BEGIN');
  await tx.query(`INSERT INTO ${table} VALUES (9)`);
  tx.release(new Error('the transaction failed'));
  expect(() => tx.release()).toThrow(/already been released/);
  const { rows } = await pool.query('SELECT txid_current_if_assigned() AS id');
  expect(rows[0].id).toBeNull(); // a fresh implicit transaction, not the abandoned one
  expect((await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE v = 9`)).rows[0].n).toBe(0);
});

// Several connections (PostgreSQL: on the embedded database every connection is the same
// session, so it is only ever given one).
describe.skipIf(inject('embedded'))('with several connections', () => {
  let wide: PipelinedPool;
  const pid = async (q: Promise<{ rows: { pid: number }[] }>) => (await q).rows[0].pid;
  beforeAll(() => void (wide = new PipelinedPool({ connectionString: inject('databaseUrl'), size: 3 })));
  afterAll(() => wide.end());

  it('sends concurrent statements down one connection, and spills to the next past the pipeline depth', async () => {
    const few = await Promise.all(
      Array.from({ length: 10 }, () => pid(wide.query('SELECT pg_backend_pid() AS pid, pg_sleep(0.02)'))),
    );
    expect(new Set(few).size).toBe(1);
    const many = await Promise.all(
      Array.from({ length: 40 }, () => pid(wide.query('SELECT pg_backend_pid() AS pid, pg_sleep(0.02)'))),
    );
    expect(new Set(many).size).toBe(2);
  });

  it('keeps serving statements on another connection while a transaction holds one', async () => {
    const tx = await wide.connect();
    await tx.query('BEGIN');
    const txPid = (await tx.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const other = await pid(wide.query('SELECT pg_backend_pid() AS pid')); // answered with the transaction open
    expect(other).not.toBe(txPid);
    await tx.query('COMMIT');
    tx.release();
  });

  it('lets a transaction that finds no idle connection drain one, and serves later statements after it', async () => {
    const a = await wide.connect();
    const b = await wide.connect(); // two of three connections in transactions
    const order: string[] = [];
    const slow = wide.query('SELECT pg_sleep(0.2)').then(() => order.push('statement in flight'));
    await sleep(20);
    const c = wide.connect().then((client) => {
      order.push('transaction');
      return client;
    });
    await sleep(20);
    const later = wide.query('SELECT 1').then(() => order.push('statement asked after the transaction'));
    await slow;
    const client = await c;
    await sleep(20);
    expect(order).toEqual(['statement in flight', 'transaction']); // the later statement waits: no connection is open
    client.release();
    await later;
    expect(order[2]).toBe('statement asked after the transaction');
    a.release();
    b.release();
  });
});

it('reports its connections and waiters as pg.Pool does (read by /metrics and the housekeeping passes)', async () => {
  const counts = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  await pool.query('SELECT 1');
  expect(counts()).toEqual({ total: 1, idle: 1, waiting: 0 });
  const held = await pool.connect();
  const waiting = pool.query('SELECT 1');
  expect(counts()).toEqual({ total: 1, idle: 0, waiting: 1 });
  held.release();
  await waiting;
  expect(counts()).toEqual({ total: 1, idle: 1, waiting: 0 });
});
