import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startEmbedded } from '../scripts/embedded-db.mjs';
import { ledgerViolations } from '../scripts/soak/invariants.mjs';
import { startProductionServer, type ProductionServer } from './support/production-server';
import { call, fundingLoad, fundPath, runScript, sql, until, usdAccount, type Funding } from './support/ops';
import { scratchDatabase, scratchPostgres, type ScratchDatabase } from './support/scratch-database';

// Issue 28, point 5: `npm run backup` while payments are being made, `npm run restore` into a fresh
// database, and what was committed before the backup began is all there, consistent: the ledger
// audits clean, every account's balance is exactly the fundings whose Idempotency-Key records came
// back, those keys replay their first answer byte for byte, and nothing begun after the backup
// ended is there. The embedded database is backed up beside its running server, through the
// server's own port (found from CORRIDOR_DATA_DIR, as an operator runs it).
const embedded = inject('embedded');
const dirs: string[] = [];
const scratch = (prefix: string) => {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
let source: { url: string; stop(): Promise<void> } | undefined;
let dataDir: string | undefined;
let server: ProductionServer;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  if (embedded) {
    dataDir = scratch('corridor-backup-source-');
    source = await startEmbedded({ dataDir, maxConnections: 8 });
  }
  server = await startProductionServer(embedded, {}, { databaseUrl: source?.url });
}, 600_000);
afterAll(async () => {
  await server?.stop();
  for (const stop of stops.reverse()) await stop();
  await source?.stop();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** The environment the scripts get: the database of this run's kind, the test's keys. */
const sourceEnv = () =>
  embedded ? { DATABASE_URL: undefined, CORRIDOR_DATA_DIR: dataDir } : { DATABASE_URL: server.databaseUrl };

/** Restores `file` into a fresh database of this run's kind, as an operator would; returns its URL. */
async function restoreFresh(file: string): Promise<string> {
  let target: ScratchDatabase | undefined;
  let env: Record<string, string | undefined>;
  if (embedded) {
    const dir = scratch('corridor-backup-target-');
    env = { DATABASE_URL: undefined, CORRIDOR_DATA_DIR: dir };
    const restored = await runScript('restore', [file], env);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/ledger: \d+ accounts, .*: balanced/);
    target = await startEmbedded({ dataDir: dir, maxConnections: 8 });
  } else {
    target = await scratchPostgres();
    const restored = await runScript('restore', [file], { DATABASE_URL: target.url });
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/ledger: \d+ accounts, .*: balanced/);
  }
  stops.push(() => target!.stop());
  return target.url;
}

it('a backup taken during a payment load restores into a fresh database, consistent and complete', async () => {
  const accounts = [await usdAccount(server, 'Backup A'), await usdAccount(server, 'Backup B')];
  const done: Funding[] = [];
  let stopping = false;
  const load = fundingLoad(server, accounts, () => stopping, done);
  await until(() => done.length >= 20);
  const file = path.join(scratch('corridor-backup-file-'), 'backup.sql');
  const began = Date.now();
  const backup = await runScript('backup', ['--out', file], sourceEnv());
  const ended = Date.now();
  expect(backup.code, backup.out).toBe(0);
  if (embedded) expect(backup.out).toContain('beside the running server');
  await until(() => done.filter((f) => f.started > ended).length >= 10);
  stopping = true;
  await load;
  expect(done.every((f) => f.answer.status === 200)).toBe(true);
  const during = done.filter((f) => f.started < ended && f.ended > began).length;
  console.log(`[backup] ${done.length} fundings; backup took ${ended - began} ms, ${during} overlapped it`);

  const url = await restoreFresh(file);
  expect(await ledgerViolations({ query: (text: string) => sql(url, text).then((rows) => ({ rows })) })).toEqual([]);
  const records = new Map(
    (await sql<{ key: string; state: string }>(url, `SELECT "key", "state" FROM "IdempotencyRecord"`)).map((r) => [
      r.key,
      r.state,
    ]),
  );
  // Committed before the backup began: there, done. Begun after it ended: not there at all.
  for (const f of done.filter((x) => x.ended < began)) expect(records.get(f.key), f.key).toBe('DONE');
  for (const f of done.filter((x) => x.started > ended)) expect(records.has(f.key), f.key).toBe(false);

  const restored = await startProductionServer(
    embedded,
    { CORRIDOR_CLIENT_ID: undefined, CORRIDOR_CLIENT_SECRET: undefined },
    { databaseUrl: url },
  );
  stops.push(() => restored.stop());
  const credentials = { clientId: server.clientId, clientSecret: server.clientSecret }; // the original ones
  // Each account holds exactly the fundings whose keys came back: the ledger and the records agree.
  for (const account of accounts) {
    const expected = done
      .filter((f) => f.account === account && records.get(f.key) === 'DONE')
      .reduce((sum, f) => sum + f.amount, 0);
    const a = await call(restored, credentials, 'GET', `/customers/internal-accounts?type=INTERNAL_FIAT`);
    expect(a.status, a.text).toBe(200);
    const row = a.body.data.find((x: { id: string }) => x.id === account);
    expect(Number(row.balance.amount), account).toBe(expected);
  }
  // A kept key replays its first answer, byte for byte, and moves nothing again.
  for (const f of done.filter((x) => records.get(x.key) === 'DONE').slice(0, 10)) {
    const again = await call(
      restored,
      credentials,
      'POST',
      fundPath(f.account),
      { amount: f.amount },
      {
        'idempotency-key': f.key,
      },
    );
    expect(again.status, again.text).toBe(200);
    expect(again.text).toBe(f.answer.text);
  }
  expect(await ledgerViolations({ query: (text: string) => sql(url, text).then((rows) => ({ rows })) })).toEqual([]);
}, 600_000);

it('a backup cut short or altered is refused before anything is written', async () => {
  const file = path.join(scratch('corridor-backup-bad-'), 'backup.sql');
  expect((await runScript('backup', ['--out', file], sourceEnv())).code).toBe(0);
  const { readFileSync, writeFileSync } = await import('node:fs');
  const text = readFileSync(file, 'utf8');
  const target = await scratchDatabase();
  stops.push(() => target.stop());
  writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
  const cut = await runScript('restore', [file], { DATABASE_URL: target.url });
  expect(cut.code).toBe(1);
  expect(cut.out).toMatch(/incomplete: its closing line is missing/);
  writeFileSync(file, text.replace('INSERT INTO "Platform"', 'INSERT INTO  "Platform"'));
  const altered = await runScript('restore', [file], { DATABASE_URL: target.url });
  expect(altered.code).toBe(1);
  expect(altered.out).toMatch(/damaged: its checksum does not match/);
  expect(await sql(target.url, `SELECT 1 FROM pg_tables WHERE schemaname = 'public'`)).toEqual([]);
}, 120_000);

it('a restore without the keys the backup needs is refused before anything is written', async () => {
  expect((await call(server, server, 'GET', '/config')).status).toBe(200); // seals the webhook signing key
  const file = path.join(scratch('corridor-backup-keys-'), 'backup.sql');
  expect((await runScript('backup', ['--out', file], sourceEnv())).code).toBe(0);
  const target = await scratchDatabase();
  stops.push(() => target.stop());
  const testKey = process.env.CORRIDOR_SECRET_KEY!;
  const other = 'a1'.repeat(32);
  const attempts: [Record<string, string | undefined>, RegExp][] = [
    // No key in the environment and no key file beside the target.
    [{ CORRIDOR_SECRET_KEY: undefined, CORRIDOR_DATA_DIR: scratch('corridor-no-keys-') }, /has no keys/],
    // Another installation's keys: API secrets would not verify.
    [{ CORRIDOR_SECRET_KEY: other }, /made with hash key .* API secrets would not verify/],
    // The right hash key, but not the master key the signing key is sealed under.
    [{ CORRIDOR_SECRET_KEY: other, CORRIDOR_HASH_KEY: testKey }, /sealed under master key\(s\) [0-9a-f]{16}/],
  ];
  for (const [env, message] of attempts) {
    const r = await runScript('restore', [file], { DATABASE_URL: target.url, ...env });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(message);
  }
  expect(await sql(target.url, `SELECT 1 FROM pg_tables WHERE schemaname = 'public'`)).toEqual([]);
  const ok = await runScript('restore', [file], { DATABASE_URL: target.url });
  expect(ok.code, ok.out).toBe(0);
}, 120_000);

// docs/operations.md: an embedded database's backup is a file PostgreSQL loads too, whether through
// `npm run restore` with DATABASE_URL naming a PostgreSQL database (how an installation moves to
// PostgreSQL) or with `psql -v ON_ERROR_STOP=1 -f FILE`, without Corridor.
it.skipIf(!embedded)(
  'an embedded backup loads into PostgreSQL: by npm run restore and by psql, the ledger audits clean',
  async () => {
    const file = path.join(scratch('corridor-backup-to-pg-'), 'backup.sql');
    const backup = await runScript('backup', ['--out', file], sourceEnv());
    expect(backup.code, backup.out).toBe(0);
    // Nothing moves while the copies are compared (the load of the first test has ended).
    const balances = `SELECT "id", "balance"::text AS balance FROM "LedgerAccount" ORDER BY "id"`;
    const keys = `SELECT "key", "state", "responseBody" FROM "IdempotencyRecord" ORDER BY "key"`;
    const expected = { balances: await sql(source!.url, balances), keys: await sql(source!.url, keys) };
    expect(expected.balances.length).toBeGreaterThan(4);
    expect(expected.keys.length).toBeGreaterThan(20);

    const viaRestore = await scratchPostgres();
    const viaPsql = await scratchPostgres();
    stops.push(
      () => viaRestore.stop(),
      () => viaPsql.stop(),
    );
    const restored = await runScript('restore', [file], { DATABASE_URL: viaRestore.url });
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/ledger: \d+ accounts, .*: balanced/);
    const psql = spawnSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', viaPsql.url, '-f', file], {
      encoding: 'utf8',
    });
    expect(psql.status, psql.stderr).toBe(0);

    for (const url of [viaRestore.url, viaPsql.url]) {
      expect((await sql<{ v: string }>(url, `SELECT version() AS v`))[0].v).toMatch(/^PostgreSQL \d+/);
      const audit = await runScript('ledger-check', [], { DATABASE_URL: url });
      expect(audit.code, audit.out).toBe(0);
      expect(audit.out).toMatch(/balanced/);
      expect(await ledgerViolations({ query: (text: string) => sql(url, text).then((rows) => ({ rows })) })).toEqual(
        [],
      );
      expect(await sql(url, balances)).toEqual(expected.balances);
      expect(await sql(url, keys)).toEqual(expected.keys);
    }
  },
  300_000,
);
