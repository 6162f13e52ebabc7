// The closing summary of `npm test`, made from each runner's own report: vitest's JSON report per
// database, Playwright's JSON report for the browser specs. A suite whose report is missing or
// unreadable counts as FAILED, whatever its exit code said; so does one whose runner exited
// non-zero with every test passed (an error outside the tests). tests/harness-summary.test.ts runs
// real vitest and Playwright projects with a failing test through this code.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};
const firstLines = (text) => (text ?? '').split('\n').slice(0, 3).join(' | ').slice(0, 400);

/**
 * Counts from a vitest JSON report (`--reporter=json --outputFile.json=...`), or null when there
 * is none. `broken` counts test files that failed without a failed test (an error while loading).
 */
export function vitestCounts(file, root = process.cwd()) {
  const r = readJson(file);
  if (!r || typeof r.numTotalTests !== 'number' || !Array.isArray(r.testResults)) return null;
  const failures = [];
  let broken = 0;
  for (const f of r.testResults) {
    const rel = path.relative(root, f.name);
    const failed = (f.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (!failed.length && f.status === 'failed') {
      broken++;
      failures.push(`${rel}: ${firstLines(f.message)}`);
    }
    for (const t of failed) failures.push(`${rel} > ${t.fullName}: ${firstLines(t.failureMessages?.[0])}`);
  }
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    broken,
    failures,
  };
}

function playwrightFailures(suites, trail = [], out = []) {
  for (const s of suites ?? []) {
    const here = s.title ? [...trail, s.title] : trail;
    for (const spec of s.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'unexpected') {
          const error = t.results?.at(-1)?.error?.message;
          out.push(`${[...here, spec.title].join(' > ')}: ${firstLines(error)}`);
        }
    playwrightFailures(s.suites, here, out);
  }
  return out;
}

/** Counts from a Playwright JSON report (reporter `json`), or null when there is none. */
export function playwrightCounts(file) {
  const r = readJson(file);
  if (!r?.stats || typeof r.stats.expected !== 'number') return null;
  const errors = (r.errors ?? []).map((e) => `(outside the tests): ${firstLines(e.message)}`);
  return {
    passed: r.stats.expected + (r.stats.flaky ?? 0),
    failed: r.stats.unexpected,
    skipped: r.stats.skipped ?? 0,
    broken: errors.length,
    failures: [...errors, ...playwrightFailures(r.suites)],
  };
}

const COUNTERS = { vitest: vitestCounts, playwright: playwrightCounts };

/**
 * One suite's line. `suite` is { name, exit, report?: { kind, file }, skipped?: reason }: with a
 * report the counts are the runner's own; without one (a check such as the soak) its exit code.
 */
export function suiteResult(suite, root = process.cwd()) {
  const { name, exit, report } = suite;
  if (suite.skipped) return { name, failed: false, line: `${name}: skipped (${suite.skipped})`, failures: [] };
  if (!report) {
    const failed = exit !== 0;
    return { name, failed, line: `${name}: ${failed ? 'FAILED' : 'passed'} (exit code ${exit})`, failures: [] };
  }
  const counts = COUNTERS[report.kind](report.file, root);
  if (!counts)
    return {
      name,
      failed: true,
      line: `${name}: FAILED (no ${report.kind} report at ${path.relative(root, report.file)}; exit code ${exit})`,
      failures: [],
    };
  const failed = counts.failed > 0 || counts.broken > 0 || exit !== 0;
  const parts = [`${counts.passed} passed`, `${counts.failed} failed`, `${counts.skipped} skipped`];
  if (counts.broken) parts.push(`${counts.broken} file(s) with errors outside tests`);
  if (exit !== 0) parts.push(`exit code ${exit}`);
  return {
    name,
    failed,
    line: `${name}: ${failed ? 'FAILED' : 'passed'} (${parts.join(', ')})`,
    failures: counts.failures,
  };
}

/** The closing lines and the exit code of a run of `suites`, plus the reference notice's verdict. */
export function summarize(suites, { noticeFails = false, root = process.cwd() } = {}) {
  const results = suites.map((s) => suiteResult(s, root));
  const lines = [];
  for (const r of results.filter((x) => x.failures.length)) {
    lines.push(`${r.name}: failures:`);
    for (const f of r.failures) lines.push(`  ${f}`);
  }
  lines.push('', "Summary (each runner's own count):", ...results.map((r) => `  ${r.line}`));
  const failed = results.some((r) => r.failed) || noticeFails;
  return { lines, exitCode: failed ? 1 : 0, results };
}
