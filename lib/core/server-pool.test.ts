import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { ServerPool } from './server-pool';

// The PostgreSQL pool runs statements side by side (nothing waits behind a blocked one), so a
// statement outside any transaction may be chosen as a deadlock victim; it was rolled back whole
// and is run again. Anything else fails at once. (PostgreSQL only: the embedded database uses
// the pipelined pool, which runs one statement at a time.)
const embedded = inject('embedded');
const test = it.skipIf(embedded);
const seq = `pool_attempts_${process.pid}`;
const fn = `pool_fail_first_${process.pid}`;
let pool: ServerPool;

beforeAll(async () => {
  if (embedded) return;
  pool = new ServerPool({ connectionString: inject('databaseUrl'), max: 2, timeoutMs: 5_000 });
  // Fails with `code` on its first call (the sequence is not rolled back with the statement).
  await pool.query(`CREATE SEQUENCE ${seq}`);
  await pool.query(`CREATE FUNCTION ${fn}(code text) RETURNS int LANGUAGE plpgsql AS $$
    BEGIN
      IF nextval('${seq}') = 1 THEN RAISE EXCEPTION 'first attempt' USING ERRCODE = code; END IF;
      RETURN 7;
    END $$`);
});
afterAll(async () => {
  if (embedded) return;
  await pool.query(`DROP FUNCTION IF EXISTS ${fn}(text)`);
  await pool.query(`DROP SEQUENCE IF EXISTS ${seq}`);
  await pool.end();
});

const attempts = async () => Number((await pool.query(`SELECT last_value FROM ${seq}`)).rows[0].last_value);
const reset = () => pool.query(`ALTER SEQUENCE ${seq} RESTART`);

test('runs a standalone statement again after a deadlock or a serialization failure', async () => {
  for (const code of ['40P01', '40001']) {
    await reset();
    const r = await pool.query(`SELECT ${fn}($1) AS v`, [code]);
    expect(r.rows[0].v).toBe(7);
    expect(await attempts()).toBe(2);
  }
  // The callback form too.
  await reset();
  const v = await new Promise<number>((resolve, reject) =>
    pool.query(`SELECT ${fn}('40P01') AS v`, (err: Error | null, r: { rows: { v: number }[] }) =>
      err ? reject(err) : resolve(r.rows[0].v),
    ),
  );
  expect(v).toBe(7);
});

test('fails any other error at once', async () => {
  await reset();
  const err = await pool.query(`SELECT ${fn}('23505') AS v`).catch((e: { code?: string }) => e);
  expect((err as { code?: string }).code).toBe('23505');
  expect(await attempts()).toBe(1);
});

test('starts every connection with the statement and lock limits', async () => {
  const clients = await Promise.all([pool.connect(), pool.connect()]);
  for (const c of clients) {
    expect((await c.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('5s');
    expect((await c.query('SHOW lock_timeout')).rows[0].lock_timeout).toBe('5s');
    c.release();
  }
});
