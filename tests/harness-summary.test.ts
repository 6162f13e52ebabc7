import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { playwrightCounts, summarize, vitestCounts } from '../scripts/test-summary.mjs';

// The harness tells the truth: the summary code of `npm test` (scripts/test-summary.mjs), given the
// reports of real vitest and Playwright runs of tiny projects with a failing test
// (tests/fixtures/summary), says FAILED and exits non-zero; a missing report is a failure too.
const ROOT = path.join(__dirname, '..');
const FIXTURE = path.join(__dirname, 'fixtures', 'summary');
const tmp = mkdtempSync(path.join(tmpdir(), 'corridor-summary-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** This worker's environment without what marks it as a vitest worker. */
function childEnv(extra: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  for (const k of Object.keys(env)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') delete env[k];
  return env as NodeJS.ProcessEnv;
}

function runVitest(report: string, ...extra: string[]) {
  const bin = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const config = path.join(FIXTURE, 'vitest.config.mts');
  const args = [bin, 'run', '--config', config, '--reporter=json', `--outputFile.json=${report}`, ...extra];
  return spawnSync(process.execPath, args, { cwd: ROOT, env: childEnv(), encoding: 'utf8' }).status ?? 1;
}

const text = (lines: string[]) => lines.join('\n');

it('reports a vitest run with a failing test as FAILED, with its own counts, and exits non-zero', () => {
  const report = path.join(tmp, 'vitest-failing.json');
  const exit = runVitest(report);
  expect(exit).not.toBe(0);
  expect(vitestCounts(report, ROOT)).toMatchObject({ passed: 1, failed: 1, skipped: 1, broken: 0 });
  const { lines, exitCode } = summarize([{ name: 'fixture', exit, report: { kind: 'vitest', file: report } }], {
    root: ROOT,
  });
  expect(exitCode).toBe(1);
  expect(text(lines)).toMatch(/fixture: FAILED \(1 passed, 1 failed, 1 skipped, exit code \d+\)/);
  expect(text(lines)).toMatch(
    /tests\/fixtures\/summary\/sample\.check\.ts > fails on purpose: .*the harness must report/,
  );
});

it('reports a passing vitest run as passed, but FAILED when its runner exited non-zero anyway', () => {
  const report = path.join(tmp, 'vitest-passing.json');
  const exit = runVitest(report, '-t', '^passes$');
  expect(exit).toBe(0);
  expect(vitestCounts(report, ROOT)).toMatchObject({ passed: 1, failed: 0, skipped: 2 });
  const passing = summarize([{ name: 'fixture', exit, report: { kind: 'vitest', file: report } }], { root: ROOT });
  expect(passing.exitCode).toBe(0);
  expect(text(passing.lines)).toMatch(/fixture: passed \(1 passed, 0 failed, 2 skipped\)/);
  const crashed = summarize([{ name: 'fixture', exit: 1, report: { kind: 'vitest', file: report } }], { root: ROOT });
  expect(crashed.exitCode).toBe(1);
  expect(text(crashed.lines)).toMatch(/fixture: FAILED \(1 passed, 0 failed, 2 skipped, exit code 1\)/);
});

it('counts a suite whose report is missing as FAILED, whatever its exit code', () => {
  for (const kind of ['vitest', 'playwright']) {
    const file = path.join(tmp, `absent-${kind}.json`);
    const { lines, exitCode } = summarize([{ name: 'gone', exit: 0, report: { kind, file } }], { root: ROOT });
    expect(exitCode).toBe(1);
    expect(text(lines)).toMatch(
      new RegExp(`gone: FAILED \\(no ${kind} report at .*absent-${kind}\\.json; exit code 0\\)`),
    );
  }
});

it('reports a Playwright run with a failing test as FAILED, from its JSON report', () => {
  const report = path.join(tmp, 'playwright.json');
  const bin = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  const run = spawnSync(process.execPath, [bin, 'test', '-c', path.join(FIXTURE, 'playwright.config.ts')], {
    cwd: ROOT,
    env: childEnv({ FIXTURE_REPORT: report, FIXTURE_OUTPUT: path.join(tmp, 'playwright-output') }),
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).not.toBe(0);
  expect(playwrightCounts(report)).toMatchObject({ passed: 1, failed: 1, skipped: 1, broken: 0 });
  const { lines, exitCode } = summarize(
    [{ name: 'browser', exit: run.status ?? 1, report: { kind: 'playwright', file: report } }],
    { root: ROOT },
  );
  expect(exitCode).toBe(1);
  expect(text(lines)).toMatch(/browser: FAILED \(1 passed, 1 failed, 1 skipped, exit code \d+\)/);
  expect(text(lines)).toMatch(/sample\.pw\.ts > fails on purpose: .*the harness must report/);
});

it('keeps a skipped suite out of the verdict and fails on a failed check without a report', () => {
  const { lines, exitCode } = summarize([
    { name: 'browser', skipped: 'CORRIDOR_SKIP_BROWSER_E2E is set' },
    { name: 'soak embedded', exit: 0 },
  ]);
  expect(exitCode).toBe(0);
  expect(text(lines)).toMatch(/browser: skipped \(CORRIDOR_SKIP_BROWSER_E2E is set\)/);
  expect(summarize([{ name: 'soak embedded', exit: 2 }]).exitCode).toBe(1);
});

it("gives Playwright an outputDir of its own, which holds none of the run's reports", async () => {
  // Playwright empties its outputDir when it starts: it once was test-results/ itself, and took
  // vitest's reports with it before the summary read them.
  const { default: config } = await import('../e2e/playwright.config');
  const outputDir = path.resolve(ROOT, 'e2e', config.outputDir!);
  const results = path.join(ROOT, 'test-results');
  expect(outputDir.startsWith(results + path.sep)).toBe(true);
  for (const report of [
    path.join(results, 'runs', 'x', 'vitest-embedded.json'),
    path.join(results, 'conformance-embedded.json'),
  ])
    expect(path.relative(outputDir, report).startsWith('..'), report).toBe(true);
});
