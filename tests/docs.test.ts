import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA, SHELL, blocksOf, guideFiles, guides, root } from '../e2e/doc-blocks.mjs';

// What the guides promise that can be checked without a server (e2e/docs.e2e.mjs runs their shell
// blocks against one): every block is of a kind the doc test knows, the only blocks it does not
// run are README's quick-start commands, links between the documents resolve, README is the short
// entry point it should be, the configuration reference names exactly the variables the code
// reads, and the licence is in place.
const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');
const documents = () => [...guideFiles(), 'ARCHITECTURE.md'];

describe('code blocks', () => {
  it('every fenced block is closed and is shell or data', () => {
    const unknown = documents().flatMap((file) =>
      blocksOf(read(file), file)
        .filter((b) => !SHELL.has(b.language) && !DATA.has(b.language))
        .map((b) => `${file}:${b.line} (${b.language || 'no language'})`),
    );
    // ARCHITECTURE.md draws its layers in a plain block; it is not a guide and nothing in it runs.
    expect(unknown.filter((u) => !u.startsWith('ARCHITECTURE.md'))).toEqual([]);
  });

  it('only the quick-start commands are exempt from the doc test', () => {
    const exempt = guides().flatMap((g) => g.notRun.map((b) => ({ file: g.file, text: b.text })));
    expect(exempt.map((e) => e.file)).toEqual(['README.md']);
    const commands = exempt[0].text
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm install && npm start', 'npm install && npm test']);
  });

  it('every guide but the reference pages has shell blocks to run', () => {
    const withoutBlocks = guides()
      .filter((g) => g.run.length === 0)
      .map((g) => g.file);
    expect(withoutBlocks.sort()).toEqual(['docs/configuration.md', 'docs/contributing.md']);
  });

  it('a reader can run the guides from a shell: each file loads the helpers before using them', () => {
    for (const g of guides()) {
      const uses = g.run.findIndex((b) => /(^|\$\(|\|)\s*(api|agent_api|field|wait_for|new_key)\s/m.test(b.text));
      if (uses < 0) continue;
      const loads = g.run.findIndex((b) => b.text.includes('. examples/api.sh'));
      expect(loads, `${g.file} uses examples/api.sh without loading it first`).toBeGreaterThanOrEqual(0);
      expect(loads, g.file).toBeLessThanOrEqual(uses);
    }
  });
});

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const withoutCode = read(file).replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

/** Relative links of a Markdown file outside code: [text](target). */
function linksOf(file: string): string[] {
  const text = read(file)
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('links', () => {
  it('every relative link and anchor between the documents resolves', () => {
    const broken: string[] = [];
    for (const file of documents()) {
      for (const link of linksOf(file)) {
        const [target, anchor] = link.split('#');
        const resolved = target ? path.normalize(path.join(path.dirname(file), target)) : file;
        if (!existsSync(path.join(root, resolved))) broken.push(`${file}: ${link} (no ${resolved})`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
          broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('README lists every guide', () => {
    const listed = new Set(linksOf('README.md').map((l) => l.split('#')[0]));
    const docs = guideFiles().filter((f) => f.startsWith('docs/'));
    expect(docs.filter((d) => !listed.has(d))).toEqual([]);
  });

  it('every example is used by a guide, and every example a guide names exists', () => {
    const text = guideFiles().map(read).join('\n');
    for (const example of readdirSync(path.join(root, 'examples')))
      expect(text, `examples/${example} is in no guide`).toContain(`examples/${example}`);
    for (const m of text.matchAll(/examples\/[\w.-]+\.(?:mjs|sh)/g))
      expect(existsSync(path.join(root, m[0]))).toBe(true);
  });
});

describe('README and the project files', () => {
  it('README says what Corridor is and how to start, and stays short', () => {
    const readme = read('README.md');
    expect(readme).toContain('Grid API');
    expect(readme).toContain('2025-10-13');
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
    expect(readme.split('\n').length).toBeLessThanOrEqual(180);
  });

  it('ARCHITECTURE.md stands alone', () => {
    const text = read('ARCHITECTURE.md');
    expect(text).not.toMatch(/DESIGN\.md|shared folder/);
    expect(text).toContain('## Rules that hold everywhere');
  });

  it('the licence is MIT, for the Corridor authors', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the Corridor authors\n/);
    expect(JSON.parse(read('package.json')).license).toBe('MIT');
  });
});

const CODE = ['lib', 'app', 'scripts', 'e2e', 'tests', 'components'];
const CODE_FILES = ['proxy.ts', 'instrumentation.ts', 'next.config.mjs', 'prisma.config.ts'];
// The platform's own variables, not settings of Corridor's.
const NOT_SETTINGS = new Set(['NEXT_RUNTIME', 'VITEST', 'PATH', 'HOME']);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (name === 'generated' || name === 'node_modules') return [];
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [rel] : [];
  });
}

// A read by computed name (`process.env[variable]`, e.g. scripts/test.mjs's
// `leftOut('CORRIDOR_SKIP_E2E')`) does not say which variable it reads. In a file that reads so,
// every quoted name shaped like a variable (capitals with an underscore) counts as read: the names
// such a file hands to its reader are written there as strings. Writes (`process.env[k] = ...`,
// `delete process.env[k]`) read nothing.
const LITERAL_READ = /\b(?:process\.env|env)(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g;
const COMPUTED_READ = /(?<!\bdelete\s+)(?<![\w.])(?:process\.env|env)\[\s*(?!['"`])[^\]]*\](?!\s*=(?!=))/;
const QUOTED_NAME = /['"]([A-Z][A-Z0-9]*_[A-Z0-9_]+)['"]/g;

/** The variables one source text reads, and whether it reads any by computed name. */
export function variablesIn(text: string): { names: string[]; computed: boolean } {
  const names = [...text.matchAll(LITERAL_READ)].map((m) => m[1] ?? m[2]);
  const computed = COMPUTED_READ.test(text);
  if (computed) names.push(...[...text.matchAll(QUOTED_NAME)].map((m) => m[1]));
  return { names: [...new Set(names)], computed };
}

// This file's own samples of reads (below) read nothing.
const SCANNER = 'tests/docs.test.ts';

function codeFiles(): string[] {
  const files = [...CODE.flatMap(sourceFiles), ...CODE_FILES.filter((f) => existsSync(path.join(root, f)))];
  return files.filter((f) => f !== SCANNER);
}

/** Every environment variable the code reads (variablesIn over every source file). */
function variablesRead(): Set<string> {
  const names = new Set(codeFiles().flatMap((file) => variablesIn(read(file)).names));
  for (const n of NOT_SETTINGS) names.delete(n);
  return names;
}

describe('the variable scanner', () => {
  it('sees literal reads, and reads by computed name through the names the file quotes', () => {
    const text = [
      "const a = process.env.CORRIDOR_A; const b = env['CORRIDOR_B'];",
      "const leftOut = (variable) => (process.env[variable] ? 'set' : null);",
      "leftOut('CORRIDOR_SKIP_C'); const notAVariable = 'USD';",
    ].join('\n');
    expect(variablesIn(text)).toEqual({ names: ['CORRIDOR_A', 'CORRIDOR_B', 'CORRIDOR_SKIP_C'], computed: true });
  });

  it('takes writes for writes', () => {
    const text = "process.env[k] = before[k]; delete process.env[k]; const x = 'CORRIDOR_D';";
    expect(variablesIn(text)).toEqual({ names: [], computed: false });
  });

  it('knows every file that reads a variable by computed name (check the names it quotes are variables)', () => {
    const computed = codeFiles().filter((f) => variablesIn(read(f)).computed);
    expect(computed).toEqual(['scripts/test.mjs']);
    expect([...variablesRead()]).toEqual(expect.arrayContaining(['SKIP_TYPECHECK', 'CORRIDOR_SKIP_E2E']));
  });
});

describe('the configuration reference', () => {
  const reference = read('docs/configuration.md');
  const documented = new Set([...reference.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));

  it('names every variable the code reads', () => {
    const missing = [...variablesRead()].filter((v) => !documented.has(v));
    expect(missing).toEqual([]);
  });

  it('names no variable the code does not read', () => {
    const read = variablesRead();
    const settings = [...documented].filter((v) => /^(CORRIDOR|BENCH|TEST|E2E|SKIP)_/.test(v));
    expect(settings.filter((v) => !read.has(v))).toEqual([]);
  });
});
