import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { beat, HEARTBEAT_STALE_MS } from '@/lib/ops/heartbeat';
import { readiness } from '@/lib/ops/readiness';
import { GET } from '@/app/api/ready/route';

// Issue 28 point 4: /api/ready says whether this server should get traffic — the database
// answers, every migration is applied, some worker ticked lately — and names what is wrong.
const scratch = mkdtempSync(path.join(tmpdir(), 'corridor-ready-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const INSTANCE = 2_000_000_001;

it('is not ready before any worker ticked, and ready after one did', async () => {
  await db().workerHeartbeat.deleteMany({});
  const before = await readiness(db());
  expect(before.checks.database.ok).toBe(true);
  expect(before.checks.migrations).toMatchObject({ ok: true });
  expect(before.checks.worker.ok).toBe(false);
  expect(before.ready).toBe(false);
  const res = await GET(new Request('http://localhost/api/ready'));
  expect(res.status).toBe(503);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect((await res.json()).status).toBe('not_ready');

  await beat(db(), INSTANCE);
  const after = await readiness(db());
  expect(after.checks.worker).toMatchObject({ ok: true });
  expect(after.ready).toBe(true);
  const ok = await GET(new Request('http://localhost/api/ready'));
  expect(ok.status).toBe(200);
  expect(await ok.json()).toMatchObject({ status: 'ready', checks: { worker: { ok: true } } });

  // A heartbeat older than the limit counts as a stopped worker.
  const later = new Date(Date.now() + HEARTBEAT_STALE_MS + 5_000);
  const stale = await readiness(db(), { now: later });
  expect(stale.ready).toBe(false);
  expect(stale.checks.worker.detail).toMatch(/heartbeat is \d+ s old/);
});

it('is not ready while a migration of this code is not applied, and names it', async () => {
  const dir = path.join(scratch, 'migrations');
  cpSync(path.join(process.cwd(), 'prisma', 'migrations'), dir, { recursive: true });
  mkdirSync(path.join(dir, '29991231000000_not_yet_applied'));
  writeFileSync(path.join(dir, '29991231000000_not_yet_applied', 'migration.sql'), 'SELECT 1;\n');
  await beat(db(), INSTANCE + 1, new Date(Date.now() + 10_000));
  const r = await readiness(db(), { migrationsDir: dir });
  expect(r.checks.database.ok).toBe(true);
  expect(r.checks.migrations).toEqual({ ok: false, detail: '1 pending: 29991231000000_not_yet_applied' });
  expect(r.ready).toBe(false);
});

// The runner's own list and comparison (scripts/migrate.mjs): what it would refuse to run on,
// readiness refuses too, in its words.
it('is not ready when an applied migration was edited, or this code does not have it', async () => {
  await beat(db(), INSTANCE + 2, new Date(Date.now() + 10_000));
  const edited = path.join(scratch, 'edited');
  cpSync(path.join(process.cwd(), 'prisma', 'migrations'), edited, { recursive: true });
  const first = readdirSync(edited).sort()[0];
  appendFileSync(path.join(edited, first, 'migration.sql'), '\n-- edited after it shipped\n');
  const changed = await readiness(db(), { migrationsDir: edited });
  expect(changed.checks.migrations.ok).toBe(false);
  expect(changed.checks.migrations.detail).toContain(`migration ${first} was changed after it was applied`);

  const older = path.join(scratch, 'older');
  cpSync(path.join(process.cwd(), 'prisma', 'migrations'), older, { recursive: true });
  const last = readdirSync(older).sort().at(-1)!;
  rmSync(path.join(older, last), { recursive: true });
  const unknown = await readiness(db(), { migrationsDir: older });
  expect(unknown.checks.migrations).toEqual({
    ok: false,
    detail: `database has migrations this code does not know: ${last} (is the code older than the database?)`,
  });
  expect(unknown.ready).toBe(false);
});

it('is not ready when the database does not answer', async () => {
  const gone = new PrismaClient({ adapter: new PrismaPg({ connectionString: 'postgresql://127.0.0.1:1/none' }) });
  const r = await readiness(gone);
  expect(r.ready).toBe(false);
  expect(r.checks.database.ok).toBe(false);
  expect(r.checks.migrations.detail).toMatch(/not checked/);
  await gone.$disconnect().catch(() => {});
});
