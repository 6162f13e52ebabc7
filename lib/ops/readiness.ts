import path from 'node:path';
import { Prisma, type Db } from '../core/db';
import { HEARTBEAT_STALE_MS, newestBeat } from './heartbeat';
// The migration runner's own reading of the folder and comparison with the database: readiness
// judges migrations exactly as `npm run db:migrate` and `npm start` do.
import { compareMigrations, readMigrations, refusal } from '../../scripts/migrate.mjs';

// GET /api/ready: whether this server should be sent traffic. Unlike /api/health (the process
// answers at all), it asks the database, checks that every migration this code needs is applied
// (a server started before `npm run db:migrate` finished is not ready), and that some worker —
// this process's or another's — has ticked lately, so timed work and webhooks are moving.
export interface Check {
  ok: boolean;
  detail: string;
}
export interface Readiness {
  ready: boolean;
  checks: { database: Check; migrations: Check; worker: Check };
}

const DATABASE_TIMEOUT_MS = 2_000;
type Migration = Awaited<ReturnType<typeof readMigrations>>[number];
const known = new Map<string, Promise<Migration[]>>();

/** This code's migrations (the folder npm start runs beside), read once per process. */
function migrationsIn(dir: string): Promise<Migration[]> {
  let migrations = known.get(dir);
  if (!migrations) {
    migrations = readMigrations(dir);
    migrations.catch(() => known.delete(dir));
    known.set(dir, migrations);
  }
  return migrations;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const failure = (err: unknown): Check => ({ ok: false, detail: err instanceof Error ? err.message : String(err) });

async function databaseCheck(db: Db): Promise<Check> {
  try {
    await withTimeout(db.$queryRaw(Prisma.sql`SELECT 1`), DATABASE_TIMEOUT_MS, 'the database');
    return { ok: true, detail: 'answers' };
  } catch (err) {
    return failure(err);
  }
}

async function migrationsCheck(db: Db, dir: string): Promise<Check> {
  try {
    const [migrations, rows] = await Promise.all([
      migrationsIn(dir),
      withTimeout(
        db.$queryRaw<{ name: string; checksum: string }[]>(Prisma.sql`SELECT name, checksum FROM _corridor_migrations`),
        DATABASE_TIMEOUT_MS,
        'the database',
      ),
    ]);
    const status = compareMigrations(migrations, rows);
    if (status.pending.length)
      return { ok: false, detail: `${status.pending.length} pending: ${status.pending.join(', ')}` };
    const refused = refusal(status);
    if (refused) return { ok: false, detail: refused };
    return { ok: true, detail: `${migrations.length} applied` };
  } catch (err) {
    return failure(err);
  }
}

async function workerCheck(db: Db, now: Date): Promise<Check> {
  try {
    const beat = await withTimeout(newestBeat(db), DATABASE_TIMEOUT_MS, 'the database');
    if (!beat) return { ok: false, detail: 'no worker has started (CORRIDOR_WORKER=off on every server?)' };
    const age = now.getTime() - beat.beatAt.getTime();
    const seconds = Math.round(age / 1000);
    if (age > HEARTBEAT_STALE_MS)
      return { ok: false, detail: `the newest worker heartbeat is ${seconds} s old (${beat.host}, pid ${beat.pid})` };
    return { ok: true, detail: `ticked ${seconds} s ago (${beat.host}, pid ${beat.pid})` };
  } catch (err) {
    return failure(err);
  }
}

export async function readiness(db: Db, opts: { migrationsDir?: string; now?: Date } = {}): Promise<Readiness> {
  const dir = opts.migrationsDir ?? path.join(process.cwd(), 'prisma', 'migrations');
  const database = await databaseCheck(db);
  const skipped = { ok: false, detail: 'not checked: the database does not answer' };
  const [migrations, worker] = database.ok
    ? await Promise.all([migrationsCheck(db, dir), workerCheck(db, opts.now ?? new Date())])
    : [skipped, skipped];
  return { ready: database.ok && migrations.ok && worker.ok, checks: { database, migrations, worker } };
}
