import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { newPlatform } from '@/tests/support/api';
import { customerWithAccounts, fund } from '@/tests/support/money';
import { lockRows, unlock } from '@/scripts/soak/load.mjs';

// The crash soak's own machinery (issue 22): its row-lock step survives a deadlock with the
// service's statements, and it always tears down what it started — server process group and
// scratch database — on a normal end, an uncaught exception and Ctrl-C (a second one too).

const work = mkdtempSync(path.join(tmpdir(), 'corridor-soak-harness-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A process using the soak's Teardown the way scripts/soak.mjs does: one step that takes `stepMs`
 * and writes `<name>.run`, with a synchronous last resort writing `<name>.sync`; then `then`.
 */
function child(name: string, stepMs: number, then: string) {
  const teardown = pathToFileURL(path.resolve('scripts/soak/teardown.mjs')).href;
  const file = (suffix: string) => JSON.stringify(path.join(work, `${name}.${suffix}`));
  const source = `
    import { writeFileSync } from 'node:fs';
    import { Teardown } from ${JSON.stringify(teardown)};
    const t = new Teardown(() => {});
    t.add('step', async () => { await new Promise((r) => setTimeout(r, ${stepMs})); writeFileSync(${file('run')}, 'x'); },
      () => writeFileSync(${file('sync')}, 'x'));
    t.install();
    console.log('ready');
    ${then}`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const done = (suffix: string) => {
    try {
      return readFileSync(path.join(work, `${name}.${suffix}`), 'utf8') === 'x';
    } catch {
      return false;
    }
  };
  return { proc, ready, exited, done };
}

describe('the soak tears down what it started', () => {
  it('on Ctrl-C: runs its cleanup, then exits 130', async () => {
    const c = child('sigint', 200, 'setInterval(() => {}, 1000);');
    await c.ready;
    c.proc.kill('SIGINT');
    expect(await c.exited).toBe(130);
    expect(c.done('run')).toBe(true);
  });

  it('on a second Ctrl-C during a slow cleanup: exits at once, the last resort done', async () => {
    const c = child('twice', 30_000, 'setInterval(() => {}, 1000);');
    await c.ready;
    c.proc.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    c.proc.kill('SIGINT');
    expect(await c.exited).toBe(130);
    expect(c.done('run')).toBe(false);
    expect(c.done('sync')).toBe(true);
  });

  it('on an uncaught exception or unhandled rejection: runs its cleanup, then exits 2', async () => {
    const thrown = child('thrown', 50, "setTimeout(() => { throw new Error('boom'); }, 10);");
    const rejected = child('rejected', 50, "Promise.reject(new Error('boom')); setInterval(() => {}, 1000);");
    expect(await thrown.exited).toBe(2);
    expect(await rejected.exited).toBe(2);
    expect(thrown.done('run') && rejected.done('run')).toBe(true);
  });

  it('after a normal end: the steps ran, the last resort not needed', async () => {
    const c = child('normal', 50, 't.exit(0);');
    expect(await c.exited).toBe(0);
    expect(c.done('run')).toBe(true);
    expect(c.done('sync')).toBe(false);
  });
});

describe.skipIf(inject('embedded'))('the soak’s row lock', () => {
  it('is retried when it deadlocks with a statement locking the rows in another order', async () => {
    const p = await newPlatform();
    const h = await customerWithAccounts(p, 'Dee Lock', ['USD']);
    await fund(p, h.accounts.USD, 1_000);
    const url = process.env.DATABASE_URL!;
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    const rows = (
      await other.query('SELECT "id" FROM "LedgerAccount" WHERE "internalAccountId" = $1 ORDER BY "id"', [
        h.accounts.USD,
      ])
    ).rows.map((r) => r.id as string);
    expect(rows.length).toBeGreaterThan(1);
    // The other session holds the last row, and reaches for the first once the soak holds it and
    // waits for the last: a deadlock, which the soak's session (the first to wait) detects.
    await other.query(`SET deadlock_timeout = '10s'`);
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM "LedgerAccount" WHERE "id" = $1 FOR UPDATE', [rows.at(-1)]);
    const logged: string[] = [];
    const locking = lockRows(url, h.accounts.USD, (m: string) => logged.push(m));
    await new Promise((r) => setTimeout(r, 300));
    const reach = other.query('SELECT 1 FROM "LedgerAccount" WHERE "id" = $1 FOR UPDATE', [rows[0]]);
    await reach; // granted once the soak's session was chosen as the victim and rolled back
    await other.query('ROLLBACK');
    const held = await locking;
    expect(held.attempts).toBe(2);
    expect(held.rowCount).toBe(rows.length);
    expect(logged.join('\n')).toMatch(/40P01/);
    expect(await unlock(held.conn)).toBe(null);
    await other.end();
  }, 30_000);
});
