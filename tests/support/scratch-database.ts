import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import pg from 'pg';
import { startEmbedded } from '../../scripts/embedded-db.mjs';

export interface ScratchDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * An empty database of the kind this run tests, apart from the run's own: an in-memory embedded
 * one served on loopback, or a new database on the PostgreSQL server (dropped by stop()).
 */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  if (inject('embedded')) return startEmbedded({ dataDir: null, maxConnections: 4 });
  return scratchPostgres();
}

/** A new, empty database on the PostgreSQL server, whatever kind the run tests. */
export async function scratchPostgres(): Promise<ScratchDatabase> {
  const base = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
  const name = `corridor_scratch_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name} TEMPLATE template0`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), stop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
