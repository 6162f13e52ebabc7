import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findReferenceFile, referenceDirs, referenceSummary } from './support/reference';

// Conformance on any machine: the reference document is looked for in CORRIDOR_REFERENCE_DIR,
// then ../shared/reference beside the project, nowhere else; its absence is said at the end of
// the run and fails it under CI.
describe('finding the reference document', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'corridor-reference-'));
  const project = path.join(tmp, 'checkout', 'corridor');
  const sibling = path.join(tmp, 'checkout', 'shared', 'reference');
  const chosen = path.join(tmp, 'elsewhere');
  mkdirSync(project, { recursive: true });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const put = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'openapi.yaml'), 'openapi: 3.1.0\n');
  };

  it('looks in CORRIDOR_REFERENCE_DIR, then ../shared/reference of the project, and nowhere else', () => {
    expect(referenceDirs({}, project)).toEqual([sibling]);
    expect(referenceDirs({ CORRIDOR_REFERENCE_DIR: chosen }, project)).toEqual([chosen, sibling]);
    expect(findReferenceFile('openapi.yaml', referenceDirs({}, project))).toBeNull();
    put(sibling);
    expect(findReferenceFile('openapi.yaml', referenceDirs({}, project))).toBe(path.join(sibling, 'openapi.yaml'));
    // A directory named but without the document falls back to the sibling; one with it wins.
    expect(findReferenceFile('openapi.yaml', referenceDirs({ CORRIDOR_REFERENCE_DIR: chosen }, project))).toBe(
      path.join(sibling, 'openapi.yaml'),
    );
    put(chosen);
    expect(findReferenceFile('openapi.yaml', referenceDirs({ CORRIDOR_REFERENCE_DIR: chosen }, project))).toBe(
      path.join(chosen, 'openapi.yaml'),
    );
  });

  it('names no directory of one machine', () => {
    const source = readFileSync(path.join(__dirname, 'support', 'reference.ts'), 'utf8');
    expect(source).not.toMatch(/['"`]\/(work|home|Users|tmp|root)\//);
  });

  it('says at the end of a run when the document is missing, and fails the run under CI', () => {
    const lonely = path.join(tmp, 'lonely', 'corridor');
    mkdirSync(lonely, { recursive: true });
    const missing = referenceSummary('embedded', {}, lonely);
    expect(missing.fail).toBe(false);
    expect(missing.lines.join('\n')).toMatch(/REFERENCE DOCUMENT NOT FOUND.*NOT validated/s);
    const ci = referenceSummary('postgres', { CI: '1' }, lonely);
    expect(ci.fail).toBe(true);
    expect(ci.lines.join('\n')).toMatch(/CI is set: the run fails/);
    expect(referenceSummary('embedded', { CI: '1', CORRIDOR_REFERENCE_DIR: chosen }, lonely)).toEqual({
      lines: [],
      fail: false,
    });
    expect(referenceSummary('embedded', { CI: '1' }, project)).toEqual({ lines: [], fail: false });
  });
});
