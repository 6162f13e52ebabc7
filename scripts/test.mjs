// `npm test`: type check, then the whole suite on the embedded database and, when a PostgreSQL
// server is reachable (TEST_DATABASE_URL, default 127.0.0.1:5432/test), on PostgreSQL too, then
// the pages in Chromium (e2e/browser.e2e.mjs), the quick start end to end (e2e/start.e2e.mjs) and a
// small crash soak (scripts/soak.mjs) on each database. With CI set, PostgreSQL is required. Extra
// arguments go to vitest (e.g. a file filter).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const args = process.argv.slice(2);
const run = (cmd, cmdArgs, env = {}) =>
  spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

async function postgresReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (err) {
    return err.message;
  }
}

let status = run('npm', ['run', 'gen', '--silent']);
if (status === 0 && !process.env.SKIP_TYPECHECK) status = run('npx', ['tsc', '--noEmit', '-p', '.']);
// Style and structure: ESLint (Next.js's and the project's rules) and Prettier's check.
if (status === 0 && !process.env.SKIP_LINT) status = run('npm', ['run', 'lint', '--silent']);
if (status !== 0) process.exit(status);

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
// Each run also writes vitest's JSON report, so that the failures can be repeated at the very end
// (CI shows the tail of a long log; a failure scrolled away by the later suites is otherwise lost).
const reportTo = (db) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${path.join(resultsDir, `vitest-${db}.json`)}`,
];

function failuresOf(db) {
  try {
    const report = JSON.parse(readFileSync(path.join(resultsDir, `vitest-${db}.json`), 'utf8'));
    const lines = [];
    for (const file of report.testResults ?? []) {
      const rel = path.relative(path.join(resultsDir, '..'), file.name);
      const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      if (!failed.length && file.status === 'failed') lines.push(`${rel}: ${firstLine(file.message)}`);
      for (const t of failed) lines.push(`${rel} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
    return lines;
  } catch {
    return [];
  }
}
const firstLine = (text) => (text ?? '').split('\n').slice(0, 3).join(' | ').slice(0, 400);

const only = process.env.CORRIDOR_TEST_DB;
const results = [];
const soakDatabases = [];
if (!only || only === 'embedded') {
  soakDatabases.push('embedded');
  console.log('\n=== test suite on the embedded database (PGlite) ===');
  results.push([
    'embedded',
    run('npx', ['vitest', 'run', ...reportTo('embedded'), ...args], { CORRIDOR_TEST_DB: 'embedded' }),
  ]);
}
if (!only || only === 'postgres') {
  const url = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/test';
  const reachable = await postgresReachable(url);
  if (reachable === true) {
    console.log(`\n=== test suite on PostgreSQL (${url.replace(/:[^:@/]*@/, ':***@')}) ===`);
    soakDatabases.push('postgres');
    results.push([
      'postgres',
      run('npx', ['vitest', 'run', ...reportTo('postgres'), ...args], {
        CORRIDOR_TEST_DB: 'postgres',
        TEST_DATABASE_URL: url,
      }),
    ]);
  } else if (process.env.CI) {
    console.error(`PostgreSQL at ${url} is required in CI but not reachable: ${reachable}`);
    results.push(['postgres', 1]);
  } else {
    console.warn(`\nPostgreSQL not reachable at ${url} (${reachable}); the PostgreSQL run was skipped.`);
  }
}
// The pages in a real browser: a production build, then the Playwright specs of e2e/ in Debian's
// Chromium (skipped when a file filter was given, or with CORRIDOR_SKIP_BROWSER_E2E=1).
if (!args.length && !process.env.CORRIDOR_SKIP_BROWSER_E2E) {
  console.log('\n=== browser end-to-end: console, wallet and docs in Chromium ===');
  results.push(['browser', run('node', ['e2e/browser.e2e.mjs'])]);
}
// The README quick start itself, once: npm start on both databases (skipped when a file filter
// was given, or with CORRIDOR_SKIP_E2E=1).
if (!args.length && !process.env.CORRIDOR_SKIP_E2E) {
  console.log('\n=== end-to-end: npm start ===');
  results.push(['end-to-end', run('node', ['e2e/start.e2e.mjs'])]);
  results.push(['docs', run('node', ['e2e/docs.e2e.mjs'])]); // every shell block of README.md and docs/
}
// The crash soak, small (scripts/soak.mjs: 300 keyed money operations, one SIGKILL and restart,
// one row lock held past the transaction timeout) on each database the suite ran on (skipped
// when a file filter was given, or with CORRIDOR_SKIP_SOAK=1).
if (!args.length && !process.env.CORRIDOR_SKIP_SOAK) {
  for (const db of soakDatabases) {
    console.log(`\n=== crash soak (small) on the ${db} database ===`);
    results.push([`soak ${db}`, run('node', ['scripts/soak.mjs', '--ops', '300', '--kills', '1', '--db', db])]);
  }
}
// Repeated from each run's end (tests/global-setup.ts) so that the last lines say it too.
const summaries = results.flatMap(([db]) => {
  try {
    const file = path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      '..',
      'test-results',
      `conformance-${db}.json`,
    );
    const r = JSON.parse(readFileSync(file, 'utf8'));
    return r.referenceMissing ? [`${db}: ${r.referenceMissing.replace(/\[conformance:\w+\] /g, '')}`] : [];
  } catch {
    return [];
  }
});
for (const line of summaries) console.error(`\n${line}`);
for (const [db, s] of results) {
  if (s === 0 || !['embedded', 'postgres'].includes(db)) continue;
  const failures = failuresOf(db);
  console.error(`\n${db}: ${failures.length} failed test(s)${failures.length ? ':' : ' (see the run above)'}`);
  for (const line of failures) console.error(`  ${line}`);
}
console.log('\n' + results.map(([db, s]) => `${db}: ${s === 0 ? 'passed' : 'FAILED'}`).join(', '));
process.exit(results.some(([, s]) => s !== 0) || (summaries.length && process.env.CI) ? 1 : 0);
