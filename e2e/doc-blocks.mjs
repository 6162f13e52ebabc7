// The code blocks of the guides (README.md and docs/**/*.md), as the doc test runs them
// (e2e/docs.e2e.mjs) and as tests/docs.test.ts checks them. A fenced block's info string names its
// language: sh, bash and shell blocks are run, in order, one shell per file; a shell block whose
// info string also says `no-run` is an exception the doc test counts and names (only the quick
// start's own commands may be one). Every other language must be data (json, text, yaml): code a
// reader would run lives in examples/ and is run from a shell block.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHELL = new Set(['sh', 'bash', 'shell']);
export const DATA = new Set(['json', 'text', 'yaml']);

/** README.md, then every Markdown file under docs/ (sorted), relative to the project root. */
export function guideFiles() {
  const docs = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) docs.push(rel);
    }
  };
  walk('docs');
  return ['README.md', ...docs.sort()];
}

/**
 * The fenced blocks of a Markdown text: {line (1-based, of the opening fence), language,
 * flags (the info string's other words), text}. An unclosed fence is an error.
 */
export function blocksOf(markdown, file = '(text)') {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, , fence, info] = open;
    const [language = '', ...flags] = info.trim().split(/\s+/).filter(Boolean);
    const body = [];
    let j = i + 1;
    const closes = (l) => new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(l);
    while (j < lines.length && !closes(lines[j])) body.push(lines[j++]);
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: code block never closed`);
    blocks.push({ line: i + 1, language: language.toLowerCase(), flags, text: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** Every guide with its blocks, split into the ones to run and the marked exceptions. */
export function guides() {
  return guideFiles().map((file) => {
    const blocks = blocksOf(readFileSync(path.join(root, file), 'utf8'), file);
    const shell = blocks.filter((b) => SHELL.has(b.language));
    return {
      file,
      blocks,
      run: shell.filter((b) => !b.flags.includes('no-run')),
      notRun: shell.filter((b) => b.flags.includes('no-run')),
    };
  });
}

/**
 * One bash script running a file's blocks in order in one shell (as a reader pasting them into
 * one terminal would), each under `set -euo pipefail`. Before each block it writes the block's
 * number to $DOC_PROGRESS, so that a failure names the block it happened in.
 */
export function scriptOf(blocks) {
  const parts = ['__doc_block() { printf "%s\\n" "$1" > "$DOC_PROGRESS"; set -euo pipefail; }'];
  blocks.forEach((b, i) => parts.push(`__doc_block ${i + 1}`, b.text));
  parts.push('__doc_block done');
  return parts.join('\n') + '\n';
}
