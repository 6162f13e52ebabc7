// The Node.js version Corridor needs is package.json's "engines" (README names the same). Imported
// first by scripts/start.mjs, so that an older Node is refused with this sentence before any other
// module loads, instead of failing somewhere inside.
import { readFileSync } from 'node:fs';

/** The lowest version `range` allows; only the `>=X.Y[.Z]` form package.json uses is read. */
export function minimumOf(range) {
  const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!m) throw new Error(`package.json engines.node must read ">=X.Y[.Z]", not "${range}"`);
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

/** Whether `version` (e.g. "20.18.1") is older than `minimum`. */
export function olderThan(version, minimum) {
  const v = version.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((v[i] ?? 0) !== minimum[i]) return (v[i] ?? 0) < minimum[i];
  return false;
}

/** The refusal for this Node, or null when it is recent enough. */
export function nodeVersionProblem(version = process.versions.node) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const minimum = minimumOf(pkg.engines.node);
  if (!olderThan(version, minimum)) return null;
  return (
    `[corridor] cannot start: this is Node.js ${version}; Corridor needs Node.js ${minimum.join('.')} or later ` +
    `(package.json engines: "${pkg.engines.node}"). Install a newer Node.js (https://nodejs.org) and run npm start again.`
  );
}

const problem = nodeVersionProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}
