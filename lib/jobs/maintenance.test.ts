import { afterAll, describe, expect, it } from 'vitest';
import { db, disconnectDb } from '@/lib/core/db';
import { maintainDatabase, needsOwnMaintenance, ownMaintenanceNeeded } from './maintenance';
import { autovacuumOn, tableActivity } from './repository';

// The embedded database has no autovacuum, and a server may have it off: the worker then analyzes
// and vacuums tables whose rows changed past autovacuum's thresholds (lib/jobs/maintenance.ts).
// Checked on a scratch table.
describe('database maintenance', () => {
  it('runs where no autovacuum does: always on the embedded database, on a server with it off', async () => {
    expect(needsOwnMaintenance({ embedded: true, autovacuum: true })).toBe(true);
    expect(needsOwnMaintenance({ embedded: false, autovacuum: false })).toBe(true);
    expect(needsOwnMaintenance({ embedded: false, autovacuum: true })).toBe(false);
    // What this database says, and the worker's decision from it.
    const on = await autovacuumOn();
    expect(await ownMaintenanceNeeded()).toBe(process.env.CORRIDOR_EMBEDDED === '1' || !on);
  });

  const table = `MaintenanceProbe_${process.pid}`;
  afterAll(async () => {
    await db().$executeRawUnsafe(`DROP TABLE IF EXISTS "${table}"`);
  });

  // A backend publishes its table statistics when it goes idle, at most once a second (else 10 s
  // later), and when it exits. The polls below are plain reads, which take the pipelined
  // connection on PostgreSQL (lib/core/read-route.ts), not the connection that wrote, so nothing
  // brings that one back to idle: closing the pool's connections publishes what they counted.
  const publish = () => disconnectDb();

  async function activity() {
    // PostgreSQL publishes table statistics shortly after the writing transaction ends.
    for (let i = 0; i < 50; i++) {
      const t = (await tableActivity()).find((x) => x.table === table);
      if (t && (t.modifiedSinceAnalyze > 0 || t.dead > 0)) return t;
      await new Promise((r) => setTimeout(r, 100));
    }
    return (await tableActivity()).find((x) => x.table === table);
  }

  /** The table's statistics once `settled` holds for them (published shortly after ANALYZE or VACUUM ends). */
  async function settledActivity(settled: (t: { modifiedSinceAnalyze: number; dead: number }) => boolean) {
    for (let i = 0; i < 50; i++) {
      const t = (await tableActivity()).find((x) => x.table === table)!;
      if (settled(t)) return t;
      await new Promise((r) => setTimeout(r, 100));
    }
    return (await tableActivity()).find((x) => x.table === table)!;
  }

  /** How many times the table was vacuumed by hand (VACUUM records it as it ends). */
  async function vacuumCount(): Promise<number> {
    const rows = await db().$queryRawUnsafe<{ n: bigint }[]>(
      'SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = $1',
      table,
    );
    return Number(rows[0]?.n ?? -1);
  }

  it('analyzes a table after many changes, vacuums it after many deletions, and leaves a quiet one alone', async () => {
    await db().$executeRawUnsafe(`CREATE TABLE "${table}" (id integer PRIMARY KEY, note text)`);
    await db().$executeRawUnsafe(`INSERT INTO "${table}" SELECT g, 'x' FROM generate_series(1, 1000) g`);
    await publish();
    expect((await activity())?.modifiedSinceAnalyze).toBeGreaterThanOrEqual(1000);
    expect((await maintainDatabase()).analyzed).toContain(table);
    await publish();
    expect((await settledActivity((t) => t.modifiedSinceAnalyze === 0)).modifiedSinceAnalyze).toBe(0);
    expect((await maintainDatabase()).analyzed).not.toContain(table);

    await db().$executeRawUnsafe(`DELETE FROM "${table}" WHERE id <= 600`);
    await publish();
    expect((await activity())?.dead).toBeGreaterThanOrEqual(600);
    const vacuumsBefore = await vacuumCount();
    expect((await maintainDatabase()).vacuumed).toContain(table);
    // The VACUUM ran and was recorded. Not "no dead rows left": it removes only rows no snapshot
    // can see any more, and another test file's transaction open on the same database meanwhile
    // (a held row lock) keeps the deleted rows, which VACUUM then reports as still dead.
    expect(await vacuumCount()).toBe(vacuumsBefore + 1);
  });
});
