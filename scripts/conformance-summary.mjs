// What a test run validated, and what it could not check for want of the reference material.
// tests/global-setup.ts writes one report per database (conformance-<kind>.json in the run's
// folder); this turns them into the conformance line of each run and the one notice at the end of
// `npm test` naming every skipped check, merged over the databases.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const readConformance = (dir, kind) => {
  try {
    return JSON.parse(readFileSync(path.join(dir, `conformance-${kind}.json`), 'utf8'));
  } catch {
    return null;
  }
};

const list = (items, max = 12) =>
  items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');

/** The conformance line of one run: the served document always, the reference when present. */
export function conformanceLine(r) {
  if (!r.served) return `[conformance:${r.kind}] nothing validated: the run stopped before its first test.`;
  const s = r.served;
  let line =
    `[conformance:${r.kind}] served document (GET /openapi.json): ${s.responses} responses validated, ` +
    `${s.operations.length} operations, ${s.pairs.length} operation/status pairs`;
  if (s.unlisted.length)
    line += `; ${s.unlisted.length} answer(s) it does not list (error bodies still validated): ${list(s.unlisted)}`;
  const ref = r.reference;
  if (!ref?.present) return `${line}. Reference: not found, nothing validated against it.`;
  line +=
    `. Reference: ${ref.responses} responses validated, ${ref.operations.length} operations, ` +
    `${ref.pairs.length} operation/status pairs`;
  if (ref.extensions.length)
    line += `; ${ref.extensions.length} extension operation(s) not in the reference: ${list(ref.extensions)}`;
  return `${line}.`;
}

/**
 * The one notice about the reference material: every test skipped and every check not made for
 * want of it, over all `reports` (one per database), and how to enable them. Empty when nothing
 * was skipped and the reference was found. With CI set it fails the run.
 * @param {Array<object | null>} reports
 * @param {Record<string, string | undefined>} [env]
 */
export function referenceNotice(reports, env = process.env) {
  const present = reports.filter(Boolean);
  const kinds = present.map((r) => r.kind);
  const tests = [...new Set(present.flatMap((r) => r.skipped?.tests ?? []))].sort();
  const checks = [...new Set(present.flatMap((r) => r.skipped?.checks ?? []))].sort();
  const missing = present.find((r) => r.referenceMissing)?.referenceMissing;
  if (!missing && !tests.length && !checks.length) return { lines: [], fail: false };
  const lines = [
    `REFERENCE MATERIAL NOT FOUND (${kinds.join(', ')}): ${missing ?? 'a reference file the tests need is missing.'}`,
  ];
  if (tests.length) lines.push(`  ${tests.length} test(s) skipped:`, ...tests.map((t) => `    ${t}`));
  if (checks.length)
    lines.push(`  ${checks.length} check(s) not made inside tests that ran:`, ...checks.map((c) => `    ${c}`));
  if (missing && present.some((r) => r.served))
    lines.push('  Responses were validated against the served document only.');
  lines.push(
    '  To validate against the reference and run what was skipped: CORRIDOR_REFERENCE_DIR=<folder holding openapi.yaml and hpke-vectors.json> npm test' +
      (env.CI ? '. CI is set: the run fails.' : ''),
  );
  return { lines, fail: !!env.CI };
}
