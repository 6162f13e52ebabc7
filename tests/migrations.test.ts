import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { schemaDrift } from '../scripts/schema-drift.mjs';
import { migrate, migrationStatus } from '../scripts/migrate.mjs';
import { scratchDatabase } from './support/scratch-database';

// Upgrades: the migrations make exactly the database the Prisma schema describes, and they only go
// forward — an applied migration is never edited, never dropped from the code and never joined by
// one named before it; `npm start` can be told to leave migrating to `npm run db:migrate`.
const root = path.join(__dirname, '..');
const MIGRATIONS = path.join(root, 'prisma', 'migrations');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const scratch = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

describe('the migrated database and the Prisma schema', () => {
  it('agree: tables, columns, types, nullability, defaults, indexes and foreign keys', async () => {
    // Joined, so that a failure prints each difference rather than `[ Array(1) ]`.
    expect((await schemaDrift(inject('databaseUrl'))).join('\n')).toBe('');
  });

  it('disagree as soon as the schema gains a field no migration adds (the check sees drift)', async () => {
    const schema = scratch('corridor-schema-');
    cpSync(path.join(root, 'prisma', 'schema'), schema, { recursive: true });
    const file = path.join(schema, 'customers.prisma');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/^model Customer \{$/m, 'model Customer {\n  nickname String?'),
    );
    expect((await schemaDrift(inject('databaseUrl'), schema)).join('\n')).toBe('Customer.nickname: no such column');
  });
});

/** A copy of the migrations to change, and a fresh database migrated with the originals. */
async function migratedCopy() {
  const dir = scratch('corridor-migrations-');
  cpSync(MIGRATIONS, dir, { recursive: true });
  const db = await scratchDatabase();
  await migrate(db.url, { dir });
  return { dir, db, names: readdirSync(dir).sort() };
}

describe('migrations are forward-only', () => {
  it('an applied migration edited afterwards is refused, and nothing runs', async () => {
    const { dir, db, names } = await migratedCopy();
    try {
      const first = path.join(dir, names[0], 'migration.sql');
      writeFileSync(first, `${readFileSync(first, 'utf8')}\n-- edited\n`);
      mkdirSync(path.join(dir, '99990101000000_next'));
      writeFileSync(path.join(dir, '99990101000000_next', 'migration.sql'), 'CREATE TABLE "Next" (id text);');
      await expect(migrate(db.url, { dir })).rejects.toThrow(`migration ${names[0]} was changed after it was applied`);
      expect((await migrationStatus(db.url, { dir })).pending).toEqual(['99990101000000_next']);
    } finally {
      await db.stop();
    }
  });

  it('a database with a migration the code does not have is refused (code older than the database)', async () => {
    const { dir, db, names } = await migratedCopy();
    try {
      rmSync(path.join(dir, names.at(-1)!), { recursive: true });
      await expect(migrate(db.url, { dir })).rejects.toThrow(`this code does not know: ${names.at(-1)}`);
    } finally {
      await db.stop();
    }
  });

  it('a new migration named before an applied one is refused; one named after is applied', async () => {
    const { dir, db, names } = await migratedCopy();
    try {
      const early = `${names[0].slice(0, 14)}_late`.replace(/^(\d{13})\d/, '$19'); // sorts right after the first
      mkdirSync(path.join(dir, early));
      writeFileSync(path.join(dir, early, 'migration.sql'), 'CREATE TABLE "Late" (id text);');
      expect(early < names.at(-1)!).toBe(true);
      await expect(migrate(db.url, { dir })).rejects.toThrow(`migration ${early} sorts before`);
      rmSync(path.join(dir, early), { recursive: true });
      mkdirSync(path.join(dir, '99990101000000_next'));
      writeFileSync(path.join(dir, '99990101000000_next', 'migration.sql'), 'CREATE TABLE "Next" (id text);');
      expect(await migrate(db.url, { dir })).toEqual(['99990101000000_next']);
    } finally {
      await db.stop();
    }
  });
});

/** The committed migrations at `ref`, or null when git cannot say (no repository, no such ref). */
function migrationsAt(ref: string): Map<string, string> | null {
  const list = spawnSync('git', ['ls-tree', '-r', '--name-only', ref, '--', 'prisma/migrations'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (list.status !== 0) return null;
  const files = list.stdout.split('\n').filter((f) => f.endsWith('/migration.sql'));
  return new Map(
    files.map((f) => [f, spawnSync('git', ['show', `${ref}:${f}`], { cwd: root, encoding: 'utf8' }).stdout]),
  );
}

function mainBase(): string | null {
  for (const ref of [process.env.CORRIDOR_MIGRATIONS_BASE, 'main', 'origin/main'].filter(Boolean) as string[]) {
    const base = spawnSync('git', ['merge-base', 'HEAD', ref], { cwd: root, encoding: 'utf8' });
    if (base.status === 0) return base.stdout.trim();
  }
  return null;
}

it('no committed migration is edited or removed: the working tree keeps those of HEAD and of main', () => {
  const refs = [
    ['HEAD', 'HEAD'],
    ['main', mainBase()],
  ].filter(([, r]) => r) as [string, string][];
  const checked = refs.map(([label, ref]) => [label, migrationsAt(ref)] as const).filter(([, m]) => m);
  if (!checked.length) {
    console.warn('[migrations] not a git checkout: the committed migrations were not compared');
    return;
  }
  for (const [label, committed] of checked) {
    for (const [file, text] of committed!) {
      let now: string | null = null;
      try {
        now = readFileSync(path.join(root, file), 'utf8');
      } catch {
        // removed: reported below
      }
      expect(now, `${file} (as committed in ${label}) must stay as it is: write a new migration instead`).toBe(text);
    }
  }
});

it('npm start with CORRIDOR_MIGRATE=off refuses pending migrations, naming them, and starts nothing', async () => {
  const dir = scratch('corridor-migrate-off-');
  const migrations = path.join(dir, 'migrations');
  cpSync(MIGRATIONS, migrations, { recursive: true });
  const last = readdirSync(migrations).sort().at(-1)!;
  rmSync(path.join(migrations, last), { recursive: true });
  const db = await scratchDatabase();
  try {
    await migrate(db.url, { dir: migrations }); // every migration but the newest
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url, CORRIDOR_MIGRATE: 'off', PORT: '0' },
      detached: true, // its own process group, so that a server it started goes with it
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // A server that does start (the refusal missing) is stopped, and the test fails.
    const killer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
    const code = await new Promise((resolve) => child.on('exit', resolve));
    clearTimeout(killer);
    expect(code, out).toBe(1);
    expect(out).toContain(`1 migration(s) pending (${last}) and CORRIDOR_MIGRATE=off: run \`npm run db:migrate\``);
    expect((await migrationStatus(db.url)).pending).toEqual([last]); // nothing applied
  } finally {
    await db.stop();
  }
}, 120_000);
