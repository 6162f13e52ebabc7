import * as repo from './repository';
import { housekeepingPace, pacedPass, type Pace, type PassHooks, type PassReport } from '../core/housekeeping';

// The embedded database (PGlite) runs PostgreSQL without its autovacuum daemon, and a
// PostgreSQL server may have it turned off (this machine's CI server does). Without it the
// planner keeps the statistics of the first, empty tables, and plans it caches for the prepared
// statements keep scanning tables that have since grown (measured: the payment flow at half speed
// after a thousand customers were created, back to full speed after ANALYZE), and dead rows from
// updates are never reclaimed. This does autovacuum's job with its default thresholds: ANALYZE a
// table after 50 + 10% of its rows changed, VACUUM it after 50 + 20% of them died. ANALYZE also
// makes the server re-plan the cached statements on that table. Where the server's own
// autovacuum runs, this stays out of its way.
export function needsOwnMaintenance(db: { embedded: boolean; autovacuum: boolean }): boolean {
  return db.embedded || !db.autovacuum;
}

/** Whether this process's database needs it, asked of the server once. */
let needed: Promise<boolean> | null = null;
export function ownMaintenanceNeeded(): Promise<boolean> {
  needed ??= repo
    .autovacuumOn()
    .then((autovacuum) => needsOwnMaintenance({ embedded: process.env.CORRIDOR_EMBEDDED === '1', autovacuum }))
    .catch(() => {
      needed = null; // ask again next time
      return false;
    });
  return needed;
}

/**
 * VACUUM or ANALYZE the tables past their thresholds, one table per step of a paced pass
 * (lib/core/housekeeping.ts): a VACUUM is one statement that cannot be cut smaller, so the pass
 * pauses after each table in proportion to its time and stops when its budget is spent; the
 * tables left are found again (still past their thresholds) by the next pass.
 */
export async function maintainDatabase(
  pace: Pace = { ...housekeepingPace(), batch: 1 },
  hooks?: PassHooks,
): Promise<{ analyzed: string[]; vacuumed: string[]; pass: PassReport }> {
  const analyzed: string[] = [];
  const vacuumed: string[] = [];
  const due = (await repo.tableActivity()).filter(
    (t) => t.dead > 50 + 0.2 * t.live || t.modifiedSinceAnalyze > 50 + 0.1 * t.live,
  );
  // One table per step: the step handles `limit` tables at most (the pace's batch, 1 by default).
  const pass = await pacedPass(
    'maintenance',
    async (limit) => {
      const tables = due.splice(0, limit);
      for (const t of tables) {
        if (t.dead > 50 + 0.2 * t.live) {
          await repo.vacuum(t.table);
          vacuumed.push(t.table);
        } else {
          await repo.analyze(t.table);
          analyzed.push(t.table);
        }
      }
      return tables.length;
    },
    pace,
    hooks,
  );
  return { analyzed, vacuumed, pass };
}
