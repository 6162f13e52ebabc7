// End-to-end check of the README quick start: `npm start` on an empty data directory builds if
// needed, bootstraps a sandbox platform, prints its credentials and base URL and serves the API;
// a restart keeps the data and prints no new secret; on PostgreSQL several server processes
// serve one port. The landing page renders in Chromium when it is installed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import pg from 'pg';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

function start(env) {
  const port = 4100 + Math.floor(Math.random() * 800);
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => out,
    async ready(pattern, timeoutMs = 300_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        if (pattern.test(out)) return;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`npm start exited (${child.exitCode ?? child.signalCode}):\n${out}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`npm start did not print ${pattern} in time:\n${out}`);
    },
    async stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      // The whole process group (npm, the start script, the servers) must be gone: the start
      // script releases the embedded database's lock as it exits.
      const running = () => {
        try {
          process.kill(-child.pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      const until = Date.now() + 20_000;
      while (running() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      if (running()) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

async function api(base, id, secret, p, method = 'GET', body = undefined) {
  const res = await fetch(`${base}/api/2025-10-13${p}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const step = (s) => console.log(`[e2e] ${s}`);
const E2E_SECRET = 'e2e-secret-0123456789-abcdefghijklmn';
const dataDir = mkdtempSync(path.join(tmpdir(), 'corridor-e2e-'));
try {
  step('a bootstrap secret shorter than 32 characters is refused at start');
  const weak = start({
    CORRIDOR_DATA_DIR: dataDir,
    DATABASE_URL: '',
    CORRIDOR_CLIENT_ID: 'e2e',
    CORRIDOR_CLIENT_SECRET: 'short',
  });
  await weak.ready(/CORRIDOR_CLIENT_SECRET is 5 characters long; it must have at least 32/, 60_000).catch((err) => {
    if (!/exited/.test(err.message)) throw err;
    assert.match(weak.output(), /CORRIDOR_CLIENT_SECRET is 5 characters long; it must have at least 32/);
  });
  await weak.stop();

  step('several keys without a named hash key are refused at start');
  const key = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
  const keys = start({
    CORRIDOR_DATA_DIR: dataDir,
    DATABASE_URL: '',
    CORRIDOR_SECRET_KEY: key(),
    CORRIDOR_OTHER_SECRET_KEYS: key(),
    CORRIDOR_HASH_KEY: '',
  });
  await keys.ready(/cannot start: CORRIDOR_HASH_KEY must be set/, 60_000).catch((err) => {
    if (!/exited/.test(err.message)) throw err;
    assert.match(keys.output(), /cannot start: CORRIDOR_HASH_KEY must be set/);
  });
  await keys.stop();

  step('npm start on an empty data directory (embedded database)');
  let s = start({ CORRIDOR_DATA_DIR: dataDir, DATABASE_URL: '', CORRIDOR_CLIENT_ID: '', CORRIDOR_CLIENT_SECRET: '' });
  await s.ready(/OpenAPI:\s+http/);
  const id = /client id:\s+(\S+)/.exec(s.output())?.[1];
  const secret = /client secret:\s+(\S+)/.exec(s.output())?.[1];
  assert.ok(id && secret, `credentials printed:\n${s.output()}`);
  assert.match(s.output(), new RegExp(`API base URL:\\s+http://localhost:${s.port}/api/2025-10-13`));
  const config = await api(s.base, id, secret, '/config');
  assert.equal(config.status, 200);
  const customer = await fetch(`${s.base}/api/2025-10-13/customers`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Eve Endtoend', platformCustomerId: 'e2e-1' }),
  });
  assert.equal(customer.status, 201);
  assert.equal((await fetch(`${s.base}/api/2025-10-13/openapi.json`)).status, 200);
  await mcpCheck(s.base, id, secret, (await customer.json()).id);
  await browserCheck(s.base);
  await s.stop();

  step('restart: data kept, no new secret printed');
  s = start({ CORRIDOR_DATA_DIR: dataDir, DATABASE_URL: '', CORRIDOR_CLIENT_ID: '', CORRIDOR_CLIENT_SECRET: '' });
  await s.ready(/OpenAPI:\s+http/);
  assert.doesNotMatch(s.output(), /client secret:/);
  const list = await api(s.base, id, secret, '/customers?platformCustomerId=e2e-1');
  assert.equal(list.body.totalCount, 1);
  step('a second process on the same data directory is refused');
  const second = start({ CORRIDOR_DATA_DIR: dataDir, DATABASE_URL: '' });
  await second.ready(/in use by process/, 120_000);
  await second.stop();
  await s.stop();

  const pgUrl = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  let reachable = true;
  await admin.connect().catch(() => (reachable = false));
  if (reachable) {
    const name = `corridor_e2e_${process.pid}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    try {
      step('npm start on PostgreSQL with known credentials and two server processes');
      s = start({
        DATABASE_URL: url.toString(),
        CORRIDOR_CLIENT_ID: 'e2e-client',
        CORRIDOR_CLIENT_SECRET: E2E_SECRET,
        CORRIDOR_WEB_CONCURRENCY: '2',
        CORRIDOR_AUTH_MAX_FAILURES_PER_ADDRESS: '20',
      });
      await s.ready(/OpenAPI:\s+http/);
      assert.match(s.output(), /2 server process/);
      assert.doesNotMatch(s.output(), new RegExp(E2E_SECRET));
      for (let i = 0; i < 6; i++) assert.equal((await api(s.base, 'e2e-client', E2E_SECRET, '/config')).status, 200);
      step('a deleted token is refused at once by every server process');
      const made = await api(s.base, 'e2e-client', E2E_SECRET, '/tokens', 'POST', {
        name: 'revoked',
        permissions: ['VIEW'],
      });
      assert.equal(made.status, 201);
      // Spread over both processes (the port is shared), so each has the principal cached.
      for (let i = 0; i < 12; i++)
        assert.equal((await api(s.base, made.body.clientId, made.body.clientSecret, '/config')).status, 200);
      assert.equal((await api(s.base, 'e2e-client', E2E_SECRET, `/tokens/${made.body.id}`, 'DELETE')).status, 204);
      for (let i = 0; i < 12; i++)
        assert.equal((await api(s.base, made.body.clientId, made.body.clientSecret, '/config')).status, 401);
      step('failed authentication is counted against the TCP peer, whatever address a client claims');
      const forged = async (i) =>
        (
          await fetch(`${s.base}/api/2025-10-13/config`, {
            headers: {
              authorization: `Basic ${Buffer.from(`nobody-${i}:wrong`).toString('base64')}`,
              'x-corridor-peer-address': `192.0.2.${i}`,
              'x-forwarded-for': `198.51.100.${i}`,
            },
          })
        ).status;
      // 12 failures above, 8 more here: this address (127.0.0.1) reaches its limit of 20.
      for (let i = 1; i <= 8; i++) assert.equal(await forged(i), 401);
      const refused = await fetch(`${s.base}/api/2025-10-13/config`, {
        headers: { authorization: `Basic ${Buffer.from(`e2e-client:${E2E_SECRET}`).toString('base64')}` },
      });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal((await refused.json()).code, 'RATE_LIMITED');
      await s.stop();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } else if (process.env.CI) {
    throw new Error(`PostgreSQL is required in CI (${pgUrl})`);
  }
  await admin.end().catch(() => {});
  step('passed');
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * An AI agent's view: an agent created for the customer, its device code redeemed, and the MCP
 * server reached over real HTTP by the SDK's own client with the agent's token.
 */
async function mcpCheck(base, id, secret, customerId) {
  step('an agent connects to the MCP server over HTTP');
  const policy = {
    permissions: ['VIEW_TRANSACTIONS'],
    defaultExecutionMode: 'AUTO',
    spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 5000, monthlyLimit: 50000 },
  };
  const created = await api(base, id, secret, '/agents', 'POST', { name: 'E2E agent', customerId, policy });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const redeemed = await fetch(`${base}/api/2025-10-13/agents/device-codes/${created.body.deviceCode.code}/redeem`, {
    method: 'POST',
  });
  assert.equal(redeemed.status, 200);
  const { accessToken } = await redeemed.json();
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'corridor-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  const { tools } = await client.listTools();
  assert.ok(
    tools.some((t) => t.name === 'whoami'),
    `tools: ${tools.map((t) => t.name)}`,
  );
  const me = await client.callTool({ name: 'whoami', arguments: {} });
  assert.notEqual(me.isError, true, JSON.stringify(me));
  assert.equal(JSON.parse(me.content[0].text).id, created.body.agent.id);
  await client.close();
  // Without the token the MCP server refuses.
  const anonymous = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.equal(anonymous.status, 401);
}

async function browserCheck(base) {
  const executablePath = '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    if (process.env.CI) throw new Error('Chromium is required in CI (.ci/run installs it)');
    step('Chromium not installed: browser check skipped');
    return;
  }
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    await page.goto(base);
    assert.equal(await page.locator('h1').textContent(), 'Corridor');
    const doc = await page.request.get(
      await page
        .locator('a[href$="openapi.json"]')
        .getAttribute('href')
        .then((h) => new URL(h, base).toString()),
    );
    assert.equal((await doc.json()).openapi, '3.1.0');
    step('landing page renders in Chromium');
  } finally {
    await browser.close();
  }
}
