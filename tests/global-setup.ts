import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbedded } from '../scripts/embedded-db.mjs';
import { migrate } from '../scripts/migrate.mjs';
import { manifestSource } from '../scripts/gen-routes.mjs';
import { conformanceLine, referenceNotice } from '../scripts/conformance-summary.mjs';
import { referenceDirs, referenceSummary } from './support/reference';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    embedded: boolean;
    conformanceDir: string;
    servedDocument: string;
  }
}

const ROOT = path.join(__dirname, '..');

// Starts the database this run tests against: an in-memory PGlite served on loopback, or a fresh
// database on the PostgreSQL server (dropped afterwards). Migrations run through the same runner
// as production. Also fetches the served OpenAPI document every response is validated against,
// and collects the conformance counts the workers write. Reports go to CORRIDOR_RUN_DIR (the
// run's own folder, set by scripts/test.mjs), else test-results/; nothing tracked is written.
export default async function setup(project: TestProject) {
  const kind = process.env.CORRIDOR_TEST_DB ?? 'embedded';
  const runDir = process.env.CORRIDOR_RUN_DIR || path.join(ROOT, 'test-results');
  mkdirSync(runDir, { recursive: true });
  const summaryFile = path.join(runDir, `conformance-${kind}.json`);
  rmSync(summaryFile, { force: true });
  // Under CI a run without the reference document fails at once, before any test (and
  // scripts/test.mjs repeats why in its summary, from the file written here).
  const missing = referenceSummary(kind);
  if (missing.fail) {
    writeFileSync(summaryFile, JSON.stringify({ kind, referenceMissing: missingText() }));
    throw new Error(missing.lines.join('\n'));
  }
  writeFileSync(path.join(ROOT, 'lib', 'http', 'route-manifest.ts'), manifestSource()); // ignored by git
  project.provide('servedDocument', await writeServedDocument(runDir, kind));
  const conformanceDir = path.join(runDir, `conformance-${kind}-${process.pid}`);
  rmSync(conformanceDir, { recursive: true, force: true });
  mkdirSync(conformanceDir, { recursive: true });
  project.provide('conformanceDir', conformanceDir);
  const stop = await startDatabase(project, kind);

  return async () => {
    await stop();
    const report = collectConformance(conformanceDir, kind);
    writeFileSync(summaryFile, JSON.stringify(report, null, 2));
    rmSync(conformanceDir, { recursive: true, force: true });
    console.log(`\n${conformanceLine(report)}`);
    // Under npm test the notice is said once, at the very end, for all databases.
    if (!process.env.CORRIDOR_RUN_DIR) for (const line of referenceNotice([report]).lines) console.error(line);
  };
}

const missingText = () => `openapi.yaml is in none of ${referenceDirs().join(', ')}`;

/** The document GET /openapi.json serves, fetched from its route handler and kept for the workers. */
async function writeServedDocument(runDir: string, kind: string): Promise<string> {
  process.env.CORRIDOR_LOG_LEVEL ??= 'warn';
  const { GET } = await import('../app/api/2025-10-13/openapi.json/route');
  const res = await GET(new Request('http://localhost/api/2025-10-13/openapi.json'));
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  const file = path.join(runDir, `served-openapi-${kind}.json`);
  writeFileSync(file, await res.text());
  return file;
}

async function startDatabase(project: TestProject, kind: string): Promise<() => Promise<void>> {
  if (kind === 'embedded') {
    const db = await startEmbedded({ dataDir: null, maxConnections: 4 });
    await migrate(db.url);
    project.provide('databaseUrl', db.url);
    project.provide('embedded', true);
    return () => db.stop();
  }
  const base = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
  // From template0: whatever another program left in template1 on a shared server (a table, an
  // extension) would otherwise be copied in and read as drift from the Prisma schema.
  const name = `corridor_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  project.provide('databaseUrl', url.toString());
  project.provide('embedded', false);
  return async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
}

interface Share {
  reference: { responses: number; pairs: string[]; extensions: string[] };
  served: { responses: number; pairs: string[]; unlisted: string[] };
  skipped: { tests: string[]; checks: string[] };
}

const operationsOf = (pairs: Iterable<string>) =>
  [...new Set([...pairs].map((p) => p.split(' ').slice(0, 2).join(' ')))].sort();

/** The counts every test file's worker wrote (tests/support/conformance.ts flushConformance), added up. */
function collectConformance(dir: string, kind: string) {
  const shares = readdirSync(dir).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Share);
  const all = <T>(pick: (s: Share) => T[]) => [...new Set(shares.flatMap(pick))].sort();
  const sum = (pick: (s: Share) => number) => shares.reduce((n, s) => n + pick(s), 0);
  const referenceMissing = referenceSummary(kind).lines.length ? missingText() : undefined;
  const servedPairs = all((s) => s.served.pairs);
  const referencePairs = all((s) => s.reference.pairs);
  return {
    kind,
    served: {
      responses: sum((s) => s.served.responses),
      operations: operationsOf(servedPairs),
      pairs: servedPairs,
      unlisted: all((s) => s.served.unlisted),
    },
    reference: {
      present: !referenceMissing,
      responses: sum((s) => s.reference.responses),
      operations: operationsOf(referencePairs),
      pairs: referencePairs,
      extensions: all((s) => s.reference.extensions),
    },
    skipped: { tests: all((s) => s.skipped.tests), checks: all((s) => s.skipped.checks) },
    ...(referenceMissing ? { referenceMissing } : {}),
  };
}
