import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import type { ProductionServer } from './production-server';

// Helpers for the operations tests (backups, restores, moves): the npm scripts run as an operator
// runs them, a production server called over HTTP, a load of money-moving requests.
const root = path.resolve(__dirname, '..', '..');

/** Runs `node scripts/<name>.mjs args` with `env` over this process's; resolves with its exit and output. */
export function runScript(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [path.join(root, 'scripts', `${name}.mjs`), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

export interface Answer {
  status: number;
  text: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One API call to `server` with the given credentials. */
export async function call(
  server: { base: string },
  credentials: { clientId: string; clientSecret: string },
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const authorization = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
  const res = await fetch(`${server.base}/api/2025-10-13${p}`, {
    method,
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : null,
  };
}

export async function sql<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** A new customer's USD internal account id. */
export async function usdAccount(server: ProductionServer, name: string): Promise<string> {
  const c = await call(server, server, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: name,
    platformCustomerId: `${name}-${randomUUID().slice(0, 8)}`,
    currencies: ['USD'],
  });
  expect(c.status, c.text).toBe(201);
  const list = await call(
    server,
    server,
    'GET',
    `/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`,
  );
  expect(list.status, list.text).toBe(200);
  return list.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD').id;
}

/** One keyed sandbox funding: what was asked, when, and what came back. */
export interface Funding {
  key: string;
  account: string;
  amount: number;
  started: number;
  ended: number;
  answer: Answer;
}

export const fundPath = (account: string) => `/sandbox/internal-accounts/${encodeURIComponent(account)}/fund`;

/**
 * Keyed fundings of `accounts`, `concurrency` at a time, until `stop()` says so. Each moves money
 * into an account (a ledger posting), records its Idempotency-Key and writes an event.
 */
export async function fundingLoad(
  server: ProductionServer,
  accounts: string[],
  stop: () => boolean,
  done: Funding[],
  concurrency = 4,
): Promise<void> {
  let n = 0;
  const worker = async () => {
    while (!stop()) {
      const account = accounts[n++ % accounts.length];
      const amount = 1 + Math.floor(Math.random() * 10_000);
      const key = randomUUID();
      const started = Date.now();
      const answer = await call(server, server, 'POST', fundPath(account), { amount }, { 'idempotency-key': key });
      done.push({ key, account, amount, started, ended: Date.now(), answer });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Resolves once `predicate()` holds (checked every 50 ms), or fails after `ms`. */
export async function until(predicate: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}
