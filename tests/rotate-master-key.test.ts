import { spawn } from 'node:child_process';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { keyId } from '@/lib/core/crypto/keyring.mjs';
import { SCHEMES, SEALED_COLUMNS } from '@/lib/core/crypto/sealed-columns.mjs';
import { startProductionServer, type ProductionServer } from './support/production-server';

// `npm run rotate-master-key` against a production server that keeps answering (issue 23, item
// 10): every sealed secret ends under the new key (the v1 formats included), the server opens
// them throughout, and API secrets keep working (the hash key does not rotate). PostgreSQL: the
// embedded database serves one process, so there the rotation runs with the server stopped.
const embedded = inject('embedded');
const test = it.skipIf(embedded);
const root = path.join(__dirname, '..');
const old = randomBytes(32);
let dir: string;
let server: ProductionServer;
let auth: string;

beforeAll(async () => {
  if (embedded) return;
  dir = mkdtempSync(path.join(tmpdir(), 'corridor-rotate-'));
  // A key file as written before keys rotated: one bare key, which also keys the hashes.
  writeFileSync(path.join(dir, 'secret.key'), `${old.toString('hex')}\n`, { mode: 0o600 });
  server = await startProductionServer(false, { CORRIDOR_SECRET_KEY: undefined, CORRIDOR_DATA_DIR: dir });
  auth = `Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`;
}, 600_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, p: string, body?: unknown, authorization = auth) {
  const res = await fetch(`${server.base}${p.startsWith('/cards/reveal/') ? '' : '/api/2025-10-13'}${p}`, {
    method,
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : null,
  };
}

function runScript(...args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'rotate-master-key.mjs'), ...args], {
    env: { ...process.env, DATABASE_URL: server.databaseUrl, CORRIDOR_DATA_DIR: dir, CORRIDOR_SECRET_KEY: undefined },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: server.databaseUrl });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** An ACTIVE card whose CVV is sealed in the vault's v1 format under the old key (a row from before v2). */
async function legacyCard(): Promise<string> {
  const c = await call('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Rota Tion',
    currencies: ['USD'],
  });
  expect(c.status, c.text).toBe(201);
  const accounts = await call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`);
  const usd = accounts.body.data.find((a: { type: string }) => a.type === 'INTERNAL_FIAT').id;
  const card = await call('POST', '/cards', { cardholderId: c.body.id, form: 'VIRTUAL', fundingSources: [usd] });
  expect(card.status, card.text).toBe(201);
  expect((await call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200);
  expect((await call('GET', `/cards/${card.body.id}`)).body.state).toBe('ACTIVE');
  const key = Buffer.from(hkdfSync('sha256', old, SCHEMES.vault.salt, SCHEMES.vault.info, 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`card:cvv:${card.body.id}`));
  const ct = Buffer.concat([cipher.update('123'), cipher.final()]);
  const v1 = `v1.${Buffer.concat([iv, ct, cipher.getAuthTag()]).toString('base64url')}`;
  await sql(`UPDATE "Card" SET "cvvSealed" = $1 WHERE "id" = $2`, [v1, card.body.id]);
  return card.body.id;
}

/** Mints a reveal link and opens it: the card's PAN and CVV as the page shows them. */
async function reveal(cardId: string) {
  const minted = await call('POST', `/cards/${cardId}/reveal`);
  if (minted.status !== 200) return { status: minted.status, text: minted.text };
  const page = await call('GET', new URL(minted.body.panEmbedUrl).pathname);
  const pan = /data-testid="pan">([\d ]+)</.exec(page.text)?.[1].replace(/ /g, '');
  const cvv = /data-testid="cvv">(\d+)</.exec(page.text)?.[1];
  return { status: page.status, text: page.text.slice(0, 300), pan, cvv };
}

test('re-seals every secret under a new key while the server answers, and keeps API secrets working', async () => {
  const cardId = await legacyCard();
  const config = await call('GET', '/config');
  expect(config.status, config.text).toBe(200);
  const before = await reveal(cardId);
  expect(before).toMatchObject({ status: 200, cvv: '123' });
  const made = await call('POST', '/tokens', { name: 'before rotation', permissions: ['VIEW'] });
  expect(made.status, made.text).toBe(201);
  const basic = (t: { clientId: string; clientSecret: string }) =>
    `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString('base64')}`;

  // Requests that open sealed secrets (each reveal decrypts the PAN and CVV) run throughout.
  const failures: string[] = [];
  let rounds = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const r = await reveal(cardId);
      if (r.status !== 200 || r.pan !== before.pan || r.cvv !== '123') failures.push(JSON.stringify(r));
      const cfg = await call('GET', '/config');
      if (cfg.status !== 200 || cfg.body.webhookSigningPublicKey !== config.body.webhookSigningPublicKey)
        failures.push(cfg.text);
      rounds++;
    }
  };
  const load = Promise.all([worker(), worker(), worker()]);
  await new Promise((r) => setTimeout(r, 1_000));
  const rotated = await runScript();
  await new Promise((r) => setTimeout(r, 1_500));
  stop = true;
  await load;

  expect(rotated.code, rotated.out).toBe(0);
  expect(failures).toEqual([]);
  expect(rounds).toBeGreaterThan(5);
  const keys = readFileSync(path.join(dir, 'secret.key'), 'utf8').match(/^key [0-9a-f]{64}$/gm)!;
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(`key ${old.toString('hex')}`);
  expect(readFileSync(path.join(dir, 'secret.key'), 'utf8')).toContain(`hash ${old.toString('hex')}`);
  const next = keyId(Buffer.from(keys[0].slice(4), 'hex'));
  expect(next).not.toBe(keyId(old));
  for (const col of SEALED_COLUMNS) {
    const rows = await sql<{ v: string }>(
      `SELECT "${col.column}" AS v FROM "${col.table}" WHERE "${col.column}" IS NOT NULL`,
    );
    for (const { v } of rows)
      expect(v.startsWith(`v2.${next}.`), `${col.table}.${col.column}: ${v.slice(0, 24)}`).toBe(true);
  }

  // The hash key did not move: the bootstrap secret (the load above), a token made before and one
  // made after all authenticate.
  const after = await call('POST', '/tokens', { name: 'after rotation', permissions: ['VIEW'] });
  expect(after.status, after.text).toBe(201);
  for (const t of [made.body, after.body]) expect((await call('GET', '/config', undefined, basic(t))).status).toBe(200);

  // Nothing is left under the old key: it can go; the server still opens everything.
  const retired = await runScript('--retire');
  expect(retired.code, retired.out).toBe(0);
  expect(readFileSync(path.join(dir, 'secret.key'), 'utf8').match(/^key /gm)).toHaveLength(1);
  await new Promise((r) => setTimeout(r, 1_200));
  expect(await reveal(cardId)).toMatchObject({ status: 200, pan: before.pan, cvv: '123' });
  const check = await runScript('--check');
  expect(check.out).toContain(`"${next}":`);
  expect(check.out).not.toContain(`"${keyId(old)}"`);
}, 180_000);
