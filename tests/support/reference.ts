import { existsSync } from 'node:fs';
import path from 'node:path';

// Where the shared reference material (the interface's openapi.yaml, HPKE vectors) lives:
// CORRIDOR_REFERENCE_DIR, else ../shared/reference beside the project. Nothing else: a checkout
// elsewhere sets CORRIDOR_REFERENCE_DIR. Without it the tests that need it are skipped and named at
// the end of the run (tests/support/needs-reference.ts), and with CI set the run fails
// (tests/global-setup.ts).
const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

type Env = Record<string, string | undefined>;

/** The directories searched, in order. */
export function referenceDirs(env: Env = process.env, root: string = PROJECT_ROOT): string[] {
  return [env.CORRIDOR_REFERENCE_DIR, path.resolve(root, '..', 'shared', 'reference')].filter((p): p is string => !!p);
}

export function findReferenceFile(name: string, dirs: string[] = referenceDirs()): string | null {
  for (const dir of dirs) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  return null;
}

export const referenceFile = (name: string): string | null => findReferenceFile(name);

/**
 * The closing lines of a run about the reference document, and whether the run must fail: when
 * it is missing, responses were not validated, which is said last and is an error under CI.
 */
export function referenceSummary(
  kind: string,
  env: Env = process.env,
  root: string = PROJECT_ROOT,
): { lines: string[]; fail: boolean } {
  const dirs = referenceDirs(env, root);
  const file = env.CORRIDOR_REFERENCE_OPENAPI || findReferenceFile('openapi.yaml', dirs);
  if (file && existsSync(file)) return { lines: [], fail: false };
  const lines = [
    `[conformance:${kind}] REFERENCE DOCUMENT NOT FOUND: openapi.yaml is in none of ${dirs.join(', ')}.`,
    `[conformance:${kind}] Responses were NOT validated against the reference; set CORRIDOR_REFERENCE_DIR.` +
      (env.CI ? ' CI is set: the run fails.' : ''),
  ];
  return { lines, fail: !!env.CI };
}
