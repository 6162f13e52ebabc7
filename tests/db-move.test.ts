import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { startEmbedded } from '../scripts/embedded-db.mjs';
import { migrate } from '../scripts/migrate.mjs';
import { startProductionServer, type ProductionServer } from './support/production-server';
import { call, fundPath, runScript, sql, usdAccount } from './support/ops';
import { scratchPostgres } from './support/scratch-database';

// Issue 28, point 6: `npm run db:move` carries a platform's whole state from the embedded database
// to PostgreSQL and back: every table's rows equal, value for value, and what the API
// showed before — balances, the webhook signing key (a sealed secret) — it shows after, to the same
// API credentials (the bootstrap token's and one made through the API). Both ways need a
// PostgreSQL server, so this runs with the PostgreSQL suite.
const test = it.skipIf(inject('embedded'));
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const scratch = (prefix: string) => {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
};
type Credentials = { clientId: string; clientSecret: string };

/** Per table its row count and a fingerprint of its whole contents: equal on both sides of a move. */
async function inventory(url: string) {
  const tables = await sql<{ t: string }>(url, `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'`);
  const out: Record<string, { rows: number; contents: string }> = {};
  for (const { t } of tables) {
    const [r] = await sql<{ n: string; f: string }>(
      url,
      `SELECT count(*) AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS f FROM "${t}" x`,
    );
    out[t] = { rows: Number(r.n), contents: r.f };
  }
  return out;
}

/** What the API shows: the platform's accounts and its webhook signing key, as each credential sees it. */
async function apiView(server: { base: string }, all: Credentials[]) {
  const views = [];
  for (const credentials of all) {
    const accounts = await call(server, credentials, 'GET', '/customers/internal-accounts?type=INTERNAL_FIAT');
    const config = await call(server, credentials, 'GET', '/config');
    expect(accounts.status, accounts.text).toBe(200);
    expect(config.status, config.text).toBe(200);
    views.push({ accounts: accounts.body.data, signingKey: config.body.webhookSigningPublicKey });
  }
  return views;
}

async function withServer<T>(url: string, embedded: boolean, fn: (s: ProductionServer) => Promise<T>): Promise<T> {
  // No bootstrap credentials in the environment: only what the moved database holds authenticates.
  const env = { CORRIDOR_CLIENT_ID: undefined, CORRIDOR_CLIENT_SECRET: undefined };
  const server = await startProductionServer(embedded, env, { databaseUrl: url });
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/** A platform with customers, money moved and a second API token, on the embedded database in `dir`. */
async function populate(dir: string): Promise<Credentials[]> {
  const db = await startEmbedded({ dataDir: dir, maxConnections: 8 });
  const server = await startProductionServer(true, {}, { databaseUrl: db.url });
  try {
    for (const name of ['Move A', 'Move B']) {
      const account = await usdAccount(server, name);
      const funded = await call(
        server,
        server,
        'POST',
        fundPath(account),
        { amount: 12_345 },
        { 'idempotency-key': randomUUID() },
      );
      expect(funded.status, funded.text).toBe(200);
    }
    const token = await call(server, server, 'POST', '/tokens', {
      name: 'made before the move',
      permissions: ['VIEW'],
    });
    expect(token.status, token.text).toBe(201);
    await call(server, server, 'GET', '/config'); // makes and seals the webhook signing key
    return [
      { clientId: server.clientId, clientSecret: server.clientSecret },
      { clientId: token.body.clientId, clientSecret: token.body.clientSecret },
    ];
  } finally {
    await server.stop();
    await db.stop();
  }
}

test('npm run db:move carries everything from the embedded database to PostgreSQL and back', async () => {
  const from = scratch('corridor-move-from-');
  const credentials = await populate(from);
  const before = await (async () => {
    const db = await startEmbedded({ dataDir: from, maxConnections: 8 });
    try {
      const view = await withServer(db.url, true, (s) => apiView(s, credentials));
      return { view, inventory: await inventory(db.url) };
    } finally {
      await db.stop();
    }
  })();
  expect(before.view[0].accounts.length).toBeGreaterThanOrEqual(2);

  const pg = await scratchPostgres();
  cleanups.push(() => pg.stop());
  const there = await runScript('db-move', ['--to', pg.url], { DATABASE_URL: undefined, CORRIDOR_DATA_DIR: from });
  expect(there.code, there.out).toBe(0);
  expect(there.out).toContain("every table's row count and every ledger balance equal");
  expect(await inventory(pg.url)).toEqual(before.inventory);

  const back = scratch('corridor-move-back-');
  const refusedWhileServing = await withServer(pg.url, false, async (s) => {
    expect(await apiView(s, credentials)).toEqual(before.view);
    return runScript('db-move', ['--to-data-dir', back], { DATABASE_URL: pg.url });
  });
  expect(refusedWhileServing.code).toBe(1);
  expect(refusedWhileServing.out).toMatch(/other connection\(s\).*stop the servers using it first/);

  const home = await runScript('db-move', ['--to-data-dir', back], { DATABASE_URL: pg.url });
  expect(home.code, home.out).toBe(0);
  const db = await startEmbedded({ dataDir: back, maxConnections: 8 });
  try {
    expect(await inventory(db.url)).toEqual(before.inventory);
    expect(await withServer(db.url, true, (s) => apiView(s, credentials))).toEqual(before.view);
  } finally {
    await db.stop();
  }
}, 600_000);

test('a move goes only into an empty database', async () => {
  const from = scratch('corridor-move-full-');
  const db = await startEmbedded({ dataDir: from, maxConnections: 2 });
  await migrate(db.url);
  await db.stop();
  const pg = await scratchPostgres();
  cleanups.push(() => pg.stop());
  await sql(pg.url, 'CREATE TABLE "Occupied" (id int)');
  const r = await runScript('db-move', ['--to', pg.url], { DATABASE_URL: undefined, CORRIDOR_DATA_DIR: from });
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/target database is not empty/);
  expect(await sql(pg.url, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).toEqual([
    { tablename: 'Occupied' },
  ]);
}, 120_000);
