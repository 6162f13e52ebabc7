import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { conformanceLine, referenceNotice } from '../scripts/conformance-summary.mjs';
import { vitestCounts } from '../scripts/test-summary.mjs';

// Without the reference material a clone still passes: what needs it is skipped (vitest counts it
// as skipped), and named in one notice at the end, which fails the run under CI.
const ROOT = path.join(__dirname, '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'corridor-needs-reference-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('skips what needs an absent reference file, as vitest skips, and names it', () => {
  const report = path.join(tmp, 'report.json');
  const skippedFile = path.join(tmp, 'skipped.json');
  const env: Record<string, string | undefined> = { ...process.env, FIXTURE_SKIPPED: skippedFile };
  for (const k of Object.keys(env)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') delete env[k];
  const config = path.join(__dirname, 'fixtures', 'reference', 'vitest.config.mts');
  const bin = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(
    process.execPath,
    [bin, 'run', '--config', config, '--reporter=json', `--outputFile.json=${report}`],
    { cwd: ROOT, env: env as NodeJS.ProcessEnv, encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  expect(vitestCounts(report, ROOT)).toMatchObject({ passed: 1, failed: 0, skipped: 2, broken: 0 });
  const fixture = 'tests/fixtures/reference/missing.check.ts';
  expect(JSON.parse(readFileSync(skippedFile, 'utf8'))).toEqual({
    tests: [
      `${fixture} > reads the absent file (no-such-reference-file.yaml)`,
      `${fixture} > a block made from the absent file > every test of this block (no-such-reference-file.yaml)`,
    ],
    checks: [
      `${fixture} > runs without the reference, noting the check it could not make (no-such-reference-file.yaml): webhook some-kind`,
    ],
  });
});

const report = (kind: string, extra: object = {}) => ({
  kind,
  served: { responses: 12, operations: ['GET /config'], pairs: ['GET /config 200', 'GET /config 401'], unlisted: [] },
  reference: { present: false, responses: 0, operations: [], pairs: [], extensions: [] },
  referenceMissing: 'openapi.yaml is in none of /nowhere',
  skipped: { tests: ['a.test.ts > needs it (openapi.yaml)'], checks: ['b.test.ts > hooks (openapi.yaml): webhook x'] },
  ...extra,
});

it('says it once for all databases, with how to enable the checks, and fails only under CI', () => {
  const notice = referenceNotice([report('embedded'), report('postgres')], {});
  expect(notice.fail).toBe(false);
  const text = notice.lines.join('\n');
  expect(text).toMatch(/^REFERENCE MATERIAL NOT FOUND \(embedded, postgres\): openapi\.yaml is in none of \/nowhere/);
  expect(text.match(/a\.test\.ts > needs it/g)).toHaveLength(1);
  expect(text).toMatch(/1 test\(s\) skipped:\n {4}a\.test\.ts > needs it \(openapi\.yaml\)/);
  expect(text).toMatch(/1 check\(s\) not made inside tests that ran:\n {4}b\.test\.ts > hooks/);
  expect(text).toMatch(/CORRIDOR_REFERENCE_DIR=/);
  expect(text).toMatch(/validated against the served document only/);
  // Under CI the global setup refuses to start without the reference: no run, no served counts.
  const refused = { kind: 'embedded', referenceMissing: 'openapi.yaml is in none of /nowhere' };
  const ci = referenceNotice([refused], { CI: 'true' });
  expect(ci.fail).toBe(true);
  expect(ci.lines.join('\n')).not.toMatch(/validated/);
  expect(ci.lines.join('\n')).toMatch(/CI is set: the run fails/);
  expect(conformanceLine(refused)).toBe(
    '[conformance:embedded] nothing validated: the run stopped before its first test.',
  );
  const found = report('embedded', { referenceMissing: undefined, skipped: { tests: [], checks: [] } });
  expect(referenceNotice([found], { CI: 'true' })).toEqual({ lines: [], fail: false });
});

it('reports both documents on the conformance line', () => {
  expect(conformanceLine(report('embedded'))).toBe(
    '[conformance:embedded] served document (GET /openapi.json): 12 responses validated, 1 operations, 2 operation/status pairs. Reference: not found, nothing validated against it.',
  );
  const both = report('postgres', {
    reference: {
      present: true,
      responses: 10,
      operations: ['GET /config'],
      pairs: ['GET /config 200'],
      extensions: [],
    },
  });
  expect(conformanceLine(both)).toMatch(
    /12 responses validated.*Reference: 10 responses validated, 1 operations, 1 operation\/status pairs\.$/,
  );
});
