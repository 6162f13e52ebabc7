// `npm run check:layers`: the import graph of lib/ against the layers ARCHITECTURE.md draws.
// A unit is a top-level folder (or file) of lib/. Layers, inner to outer:
//   core  <-  ledger  <-  domains (every other folder)  <-  http (the API edge)  <-  boot/worker
// A unit may import its own layer's units and inner layers only; domains must not form an import
// cycle among themselves. Type-only imports and tests do not count: they create no runtime tie.
// Prints the graph's problems (and, with --graph, every unit's imports); exits 1 on any.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.join(root, 'lib');
// Test support is named testing.ts, or lives in a testing/ folder.
const TEST = /(\.test\.tsx?$|[/\\]testing(\.tsx?$|[/\\]))/;
const OUTER = new Set(['lib/boot', 'lib/worker', 'lib/wiring']);
const layerOf = (unit) =>
  unit === 'lib/core' || unit === 'lib/generated'
    ? 0
    : unit === 'lib/ledger'
      ? 1
      : unit === 'lib/http'
        ? 3
        : OUTER.has(unit)
          ? 4
          : 2;
const LAYER_NAMES = ['core', 'ledger', 'domain', 'http', 'boot'];

function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (name === 'generated') continue;
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name) && !TEST.test(p)) out.push(p);
  }
  return out;
}

function resolveImport(from, spec) {
  const base = spec.startsWith('@/')
    ? path.join(root, spec.slice(2))
    : spec.startsWith('.')
      ? path.resolve(path.dirname(from), spec)
      : null;
  if (!base) return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

function unitOf(file) {
  const rel = path.relative(lib, file);
  if (rel.startsWith('..')) return null;
  return `lib/${rel.split(path.sep)[0].replace(/\.tsx?$/, '')}`;
}

/** Value imports of a file: `import x from`, `export ... from`, side-effect and dynamic imports. */
function valueImports(src) {
  const specs = [];
  for (const m of src.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^'";]*?)from\s+['"]([^'"]+)['"]/gm)) {
    const clause = m[2].trim();
    const names = /^\{[\s\S]*\}$/.test(clause)
      ? clause
          .slice(1, -1)
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : [];
    const typeOnly = Boolean(m[1]) || (names.length > 0 && names.every((x) => x.startsWith('type ')));
    if (!typeOnly) specs.push(m[3]);
  }
  for (const m of src.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) specs.push(m[1]);
  for (const m of src.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

const graph = new Map();
const problems = [];
for (const file of sources(lib)) {
  const from = unitOf(file);
  if (!graph.has(from)) graph.set(from, new Set());
  for (const spec of valueImports(readFileSync(file, 'utf8'))) {
    const target = resolveImport(file, spec);
    const to = target && unitOf(target);
    if (!to || to === from) continue;
    graph.get(from).add(to);
    if (layerOf(to) > layerOf(from)) {
      problems.push(
        `${path.relative(root, file)} (${LAYER_NAMES[layerOf(from)]}) imports ${path.relative(root, target)} (${LAYER_NAMES[layerOf(to)]})`,
      );
    }
  }
}

// Strongly connected components (Tarjan): every component of more than one unit is a cycle.
let index = 0;
const stack = [];
const info = new Map();
const cycles = [];
function connect(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!info.has(w)) {
      connect(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const v of graph.keys()) if (!info.has(v)) connect(v);
for (const c of cycles) problems.push(`import cycle among ${c.length} units: ${c.join(', ')}`);

if (process.argv.includes('--graph')) {
  for (const [unit, deps] of [...graph].sort()) console.log(`${unit} -> ${[...deps].sort().join(', ') || '(nothing)'}`);
}
const units = graph.size;
const inCycles = cycles.reduce((n, c) => n + c.length, 0);
console.log(
  `layers: ${units} units in lib/, ${inCycles} in import cycles, ${problems.length - cycles.length} imports against the layers`,
);
for (const p of problems) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
