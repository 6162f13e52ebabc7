import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbedded } from '../scripts/embedded-db.mjs';
import { migrate } from '../scripts/migrate.mjs';
import { manifestSource } from '../scripts/gen-routes.mjs';
import { writeFileSync } from 'node:fs';
import { referenceSummary } from './support/reference';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    embedded: boolean;
    conformanceDir: string;
  }
}

// Starts the database this run tests against: an in-memory PGlite served on loopback, or a fresh
// database on the PostgreSQL server (dropped afterwards). Migrations run through the same runner
// as production. Also collects the conformance counts the workers write.
export default async function setup(project: TestProject) {
  // Under CI a run without the reference document fails at once, before any test (and
  // scripts/test.mjs repeats why in its summary, from the file written here).
  const kindNow = process.env.CORRIDOR_TEST_DB ?? 'embedded';
  const summaryFile = path.join(__dirname, '..', 'test-results', `conformance-${kindNow}.json`);
  rmSync(summaryFile, { force: true });
  const missing = referenceSummary(kindNow);
  if (missing.fail) {
    mkdirSync(path.dirname(summaryFile), { recursive: true });
    writeFileSync(summaryFile, JSON.stringify({ referenceMissing: missing.lines.join(' ') }));
    throw new Error(missing.lines.join('\n'));
  }
  writeFileSync(path.join(__dirname, '..', 'lib', 'http', 'route-manifest.ts'), manifestSource());
  const conformanceDir = path.join(__dirname, '..', 'test-results', `conformance-${process.pid}`);
  rmSync(conformanceDir, { recursive: true, force: true });
  mkdirSync(conformanceDir, { recursive: true });
  project.provide('conformanceDir', conformanceDir);

  const kind = process.env.CORRIDOR_TEST_DB ?? 'embedded';
  let stop: () => Promise<void>;
  if (kind === 'embedded') {
    const db = await startEmbedded({ dataDir: null, maxConnections: 4 });
    await migrate(db.url);
    project.provide('databaseUrl', db.url);
    project.provide('embedded', true);
    stop = () => db.stop();
  } else {
    const base = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
    const name = `corridor_test_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    await migrate(url.toString());
    project.provide('databaseUrl', url.toString());
    project.provide('embedded', false);
    stop = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }

  return async () => {
    await stop();
    const reference = referenceSummary(kind);
    reportConformance(conformanceDir, kind, reference.lines.join(' ') || undefined);
    // Said last, so that it is seen: without the reference document nothing was validated.
    for (const line of reference.lines) console.error(line);
  };
}

function reportConformance(dir: string, kind: string, referenceMissing?: string) {
  const ops = new Set<string>();
  const pairs = new Set<string>();
  const extensions = new Set<string>();
  let responses = 0;
  for (const f of readdirSync(dir)) {
    const r = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as {
      responses: number;
      pairs: string[];
      extensions: string[];
    };
    responses += r.responses;
    for (const p of r.pairs) {
      pairs.add(p);
      ops.add(p.split(' ').slice(0, 2).join(' '));
    }
    for (const e of r.extensions) extensions.add(e);
  }
  console.log(
    `\n[conformance:${kind}] ${responses} responses validated against the reference: ${ops.size} operations, ${pairs.size} operation/status pairs` +
      (extensions.size
        ? `; ${extensions.size} extension operation(s) not in the reference: ${[...extensions].sort().join(', ')}`
        : ''),
  );
  writeFileSync(
    path.join(dir, '..', `conformance-${kind}.json`),
    JSON.stringify(
      {
        responses,
        operations: [...ops].sort(),
        pairs: [...pairs].sort(),
        extensions: [...extensions].sort(),
        ...(referenceMissing ? { referenceMissing } : {}),
      },
      null,
      2,
    ),
  );
}
