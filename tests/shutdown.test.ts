import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { apiViolations, jobViolations, ledgerViolations } from '../scripts/soak/invariants.mjs';
import { Client } from '../scripts/soak/http.mjs';
import { startProductionServer, type ProductionServer } from './support/production-server';
import { call, fundPath, sql, usdAccount } from './support/ops';

// Issue 28 point 4: SIGTERM during a load of quote + execute. The server stops accepting, lets
// the requests under way finish, closes its worker and connections and exits 0; every request
// was either answered or never started (no key of an unanswered request has a record), no job is
// left leased to the process that left, and the crash soak's invariants hold (scripts/soak.mjs):
// the ledger balances, no job is claimed by a dead worker, and a server started again on the
// database shows no negative balance and knows every id an answer named.
const embedded = inject('embedded');
let server: ProductionServer;
let destination: string;
let source: string;
let customer: string;

beforeAll(async () => {
  server = await startProductionServer(embedded, { CORRIDOR_WORKER: 'on', CORRIDOR_SHUTDOWN_TIMEOUT_MS: '15000' });
  source = await usdAccount(server, 'Sigrid Shutdown');
  const funded = await call(server, server, 'POST', fundPath(source), { amount: 100_000_000 });
  expect(funded.status, funded.text).toBe(200);
  customer = (
    await sql<{ customerId: string }>(server.databaseUrl, `SELECT "customerId" FROM "InternalAccount" WHERE id = $1`, [
      source,
    ])
  )[0].customerId;
  const ext = await call(server, server, 'POST', '/customers/external-accounts', {
    customerId: customer,
    currency: 'EUR',
    accountInfo: {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013000',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Pat Receiver',
        countryOfResidence: 'DE',
        address: { line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' },
      },
    },
  });
  expect(ext.status, ext.text).toBe(201);
  destination = ext.body.id;
}, 600_000);
afterAll(() => server?.stop());

type Outcome = { key: string; step: 'quote' | 'execute'; status?: number; id?: string; error?: string };

it('drains on SIGTERM: each request answered or never started, exit 0, the ledger balanced', async () => {
  const outcomes: Outcome[] = [];
  let refused = false;
  const keyed = async (step: Outcome['step'], path: string, body: unknown) => {
    const key = randomUUID();
    try {
      const a = await call(server, server, 'POST', path, body, { 'idempotency-key': key });
      outcomes.push({ key, step, status: a.status, id: a.status < 300 ? a.body?.id : undefined });
      return a;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? String(err);
      outcomes.push({ key, step, error: cause });
      if (cause === 'ECONNREFUSED') refused = true;
      return null;
    }
  };
  const loop = async () => {
    while (!refused) {
      const q = await keyed('quote', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: destination },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      });
      if (q?.status === 201) await keyed('execute', `/quotes/${encodeURIComponent(q.body.id)}/execute`, undefined);
    }
  };
  const load = Promise.all(Array.from({ length: 6 }, loop));
  // Let the load run, then ask the server to stop while requests are in flight.
  while (outcomes.filter((o) => o.status === 200).length < 10) await new Promise((r) => setTimeout(r, 50));
  const code = await server.signal('SIGTERM');
  await load;

  expect(code).toBe(0);
  expect(server.output()).toMatch(/SIGTERM: stopped in \d+ ms/);
  expect(server.output()).not.toMatch(/were cut/);
  const answered = outcomes.filter((o) => o.status !== undefined);
  const unanswered = outcomes.filter((o) => o.status === undefined);
  expect(answered.length).toBeGreaterThan(20);
  expect(
    answered.every((o) => o.status! < 500),
    JSON.stringify(answered.filter((o) => o.status! >= 500)),
  ).toBe(true);
  expect(unanswered.length).toBeGreaterThan(0); // the load ran into the closed port
  // An unanswered request never started: no Idempotency-Key record of it, pending or done.
  const keys = unanswered.map((o) => o.key);
  const recorded = await sql<{ key: string }>(
    server.databaseUrl,
    `SELECT "key" FROM "IdempotencyRecord" WHERE "key" = ANY($1::text[])`,
    [keys],
  );
  expect(recorded).toEqual([]);
  // What was answered is all there, and the money adds up.
  const executed = answered.filter((o) => o.step === 'execute' && o.status === 200).map((o) => o.key);
  const done = await sql<{ key: string; state: string }>(
    server.databaseUrl,
    `SELECT "key", "state" FROM "IdempotencyRecord" WHERE "key" = ANY($1::text[])`,
    [executed],
  );
  expect(done.length).toBe(executed.length);
  expect(done.every((r) => r.state === 'DONE')).toBe(true);
  await soakInvariants(answered);
}, 300_000);

/** The crash soak's invariants (scripts/soak/invariants.mjs) once the server has left. */
async function soakInvariants(answered: Outcome[]): Promise<void> {
  const conn = new pg.Client({ connectionString: server.databaseUrl });
  await conn.connect();
  try {
    expect(await ledgerViolations(conn)).toEqual([]);
    // The worker gave back what it held: no job is running or leased with nobody left to run it.
    const leased = await conn.query(
      `SELECT "id", "kind", "state" FROM "Job" WHERE "state" = 'RUNNING' OR "leaseUntil" > now()`,
    );
    expect(leased.rows).toEqual([]);
    // The soak's rule, with no time to settle: a job claimed before now is a dead worker's.
    const jobs = await jobViolations(conn, Date.now(), 0);
    expect(jobs.violations).toEqual([]);
    expect(jobs.stillRunning).toBe(0);
  } finally {
    await conn.end();
  }
  // Through the API of a server started again on the database: balances and every id answered.
  const again = await startProductionServer(embedded, { CORRIDOR_WORKER: 'on' }, { databaseUrl: server.databaseUrl });
  try {
    const named = answered.filter((o) => o.status! < 300 && o.id).map((o) => ({ path: '/quotes', id: o.id! }));
    expect(named.length).toBeGreaterThan(10);
    const client = new Client(again.base, server.clientId, server.clientSecret, 30_000);
    expect(await apiViolations(client, [{ id: customer }], named)).toEqual([]);
  } finally {
    await again.stop();
  }
}
