// The bench's server and API: a production server started on a fresh database with known
// credentials, calls over fetch or over the bench's raw keep-alive connections, and the
// customer and accounts every run pays from.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The credentials `npm start` bootstraps with (known, so that a script can call it); a database
// seeded earlier under other ones takes CORRIDOR_CLIENT_ID / CORRIDOR_CLIENT_SECRET.
const ID = process.env.CORRIDOR_CLIENT_ID || 'bench-client';
const SECRET = process.env.CORRIDOR_CLIENT_SECRET || 'bench-secret-0123456789abcdef0123456789abcdef';
export const AUTH = `Basic ${Buffer.from(`${ID}:${SECRET}`).toString('base64')}`;

/**
 * A production server (scripts/start.mjs) on the database `env` names (DATABASE_URL, or the
 * embedded one under CORRIDOR_DATA_DIR), from CORRIDOR_APP_DIR or this checkout, once it answers.
 * `appDir` runs another build's checkout instead, with its own scripts/start.mjs (bench --against).
 */
export async function startServer(label, env = {}, appDir = undefined) {
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, [path.join(appDir ?? root, 'scripts', 'start.mjs')], {
    cwd: appDir ?? (process.env.CORRIDOR_APP_DIR || root),
    env: { ...process.env, ...env, PORT: String(port), CORRIDOR_CLIENT_ID: ID, CORRIDOR_CLIENT_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  const stop = () => stopServer(child);
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`${base}/api/2025-10-13/config`, { headers: { authorization: AUTH } });
      if (r.status === 200) return { base, pid: child.pid, auth: AUTH, stop, log: () => log };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`[${label}] server did not start:\n${log}`);
}

function stopServer(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  return new Promise((r) => setTimeout(r, 1500));
}

export async function api(base, method, p, body) {
  const res = await fetch(`${base}/api/2025-10-13${p}`, {
    method,
    headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The same call over one of the bench's raw keep-alive connections. */
export async function call(conn, method, p, body) {
  const res = await conn.request(method, `/api/2025-10-13${p}`, { authorization: AUTH }, body);
  if (res.status >= 300) throw new Error(`${method} ${p} -> ${res.status} ${res.body}`);
  return res.body ? JSON.parse(res.body) : undefined;
}

export async function setup(base) {
  const customer = await api(base, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Bench Sender',
    currencies: ['USD', 'EUR'],
  });
  const accounts = await api(base, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`);
  const usd = accounts.data.find((a) => a.balance.currency.code === 'USD' && a.type === 'INTERNAL_FIAT');
  // Large enough for every flow of the run.
  for (let i = 0; i < 50; i++)
    await api(base, 'POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 100000000000 });
  const ext = await api(base, 'POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'EUR',
    accountInfo: {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013123',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Bench Receiver',
        countryOfResidence: 'DE',
        address: { line1: 'Hauptstr. 1', postalCode: '10115', country: 'DE' },
      },
    },
  });
  return { source: usd.id, destination: ext.id, customerId: customer.id };
}
