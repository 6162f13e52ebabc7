import path from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { referenceFile } from './reference';

// Tests that need the reference material (openapi.yaml, hpke-vectors.json) beside the project.
// Without it they are skipped — vitest counts them as skipped — and each is named in the one
// notice at the end of the run (scripts/test.mjs), with how to enable them. With CI set a missing
// reference fails the run before any test (tests/global-setup.ts).

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const skippedTests = new Set<string>();
/** Per test (and reference file): the checks it could not make. */
const checksNotMade = new Map<string, Set<string>>();

const hint = (name: string) => `needs the reference file ${name} (set CORRIDOR_REFERENCE_DIR)`;

function skipFor(name: string, ctx: TestContext): never {
  const file = path.relative(PROJECT_ROOT, ctx.task.file.filepath);
  skippedTests.add(`${file} > ${ctx.task.fullTestName ?? ctx.task.name} (${name})`);
  return ctx.skip(hint(name));
}

/** `it` for a test that needs reference file `name`; it gets the file's path. */
export function itWithReference(
  name: string,
  title: string,
  fn: (file: string, ctx: TestContext) => unknown,
  timeout?: number,
) {
  const file = referenceFile(name);
  it(title, async (ctx) => (file ? fn(file, ctx) : skipFor(name, ctx)), timeout);
}

/**
 * `describe` for tests that all need reference file `name`; `factory` gets the file's path.
 * Without the file the tests cannot even be listed (some are made from the document), so one
 * skipped test stands for the block.
 */
export function describeWithReference(name: string, title: string, factory: (file: string) => void) {
  const file = referenceFile(name);
  if (file) describe(title, () => factory(file));
  else describe(title, () => it('every test of this block', (ctx) => skipFor(name, ctx)));
}

/**
 * Notes a check inside a running test that was not made for want of reference file `name` (e.g.
 * a webhook body against the reference's schema): named in the run's notice with the test.
 */
export function noteCheckNotMade(name: string, check: string) {
  const { testPath, currentTestName } = expect.getState();
  const where = testPath
    ? `${path.relative(PROJECT_ROOT, testPath)} > ${currentTestName ?? '(setup)'}`
    : '(outside a test)';
  const key = `${where} (${name})`;
  checksNotMade.set(key, (checksNotMade.get(key) ?? new Set()).add(check));
}

/** What this worker skipped since the last call, emptied (flushed after each test file). */
export function takeSkipped() {
  const out = {
    tests: [...skippedTests],
    checks: [...checksNotMade].map(([where, checks]) => `${where}: ${[...checks].sort().join(', ')}`),
  };
  skippedTests.clear();
  checksNotMade.clear();
  return out;
}
